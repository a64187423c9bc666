// Content negotiation (k8s.io/apiserver/pkg/endpoints/handlers/negotiation): Accept selects the response
// representation, Content-Type the request body's. `svc` spellings are accepted and mirrored (docs/design.md 3).

import { notAcceptable } from '../../errors.js';

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

export function parseMediaType(s: string): MediaRange | undefined {
  const [full, ...paramParts] = s.split(';');
  const [type, subtype] = full.trim().toLowerCase().split('/');
  if (!type || subtype === undefined) return undefined;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of paramParts) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    if (k === 'q') q = Number(v);
    else params[k] = v;
  }
  return { type, subtype: subtype.trim(), params, q: Number.isFinite(q) ? q : 1 };
}

/** Splits an Accept header on commas outside quotes, orders by q (stable). */
export function parseAccept(header: string | null): MediaRange[] {
  if (!header || !header.trim()) return [];
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const m = parseMediaType(part);
    if (m && m.q > 0) out.push(m);
  }
  return out.map((m, i) => ({ m, i })).sort((a, b) => b.m.q - a.m.q || a.i - b.i).map((x) => x.m);
}

export type OutputFormat = 'json' | 'yaml' | 'cbor' | 'protobuf';

export interface Negotiated {
  format: OutputFormat;
  /** Alternate representation requested through `as=`. */
  as?: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  /** Version of meta.k8s.io for `as` representations. */
  asVersion?: string;
  /** Group as the client spelled it (meta.k8s.io or meta.svc.io), mirrored in the response apiVersion. */
  asGroup?: string;
  contentType: string;
}

export interface NegotiationOptions {
  cbor: boolean;
  /** Whether `as=Table` etc. may be served for this request (get, list, watch of a resource). */
  allowAs: boolean;
  watch?: boolean;
  /**
   * Whether the endpoint's objects have a protobuf form (built-in kinds). A custom resource's endpoint
   * lists protobuf among its serializers but serves it only for `as=PartialObjectMetadata[List]`
   * (apiextensions-apiserver leaves it out of the scope's StandardSerializers).
   */
  protobuf?: boolean;
}

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** The spec's spelling of the protobuf media type, accepted and mirrored (docs/design.md 3). */
export const PROTOBUF_SVC = 'application/vnd.svc.protobuf';

const META_GROUPS = new Set(['meta.k8s.io', 'meta.svc.io']);

interface Candidate {
  format: OutputFormat;
  type: string;
  subtype: string;
  /** Has a stream serializer (every one but YAML). */
  stream: boolean;
}

/** The serializers of the codec factory, in order: JSON, YAML, protobuf, then CBOR when the gate is on. */
function candidates(cbor: boolean): Candidate[] {
  const c: Candidate[] = [
    { format: 'json', type: 'application', subtype: 'json', stream: true },
    { format: 'yaml', type: 'application', subtype: 'yaml', stream: false },
    { format: 'protobuf', type: 'application', subtype: 'vnd.kubernetes.protobuf', stream: true },
  ];
  if (cbor) c.push({ format: 'cbor', type: 'application', subtype: 'cbor', stream: true });
  return c;
}

/** The 406 list (negotiation.MediaTypesForSerializer): every serializer, whatever the endpoint serves. */
export function supportedTypes(opts: { cbor: boolean }): string[] {
  const t = ['application/json', 'application/yaml', PROTOBUF];
  if (opts.cbor) t.push('application/cbor');
  return t;
}

/** The 406 list of a watch: the stream forms. */
export function supportedStreamTypes(opts: { cbor: boolean }): string[] {
  const t = ['application/json;stream=watch', `${PROTOBUF};stream=watch`];
  if (opts.cbor) t.push('application/cbor-seq');
  return t;
}

/**
 * Chooses the response representation as NegotiateOutputMediaType does (the first clause, by q, that some
 * serializer accepts with its parameters), or throws 406 NotAcceptable with the real message. A watch then
 * needs a stream serializer (NegotiateOutputMediaTypeStream): a clause chosen for YAML is a 406 there.
 */
export function negotiate(accept: string | null, opts: NegotiationOptions): Negotiated {
  const n = negotiateWith(accept, opts.cbor, (c, r) => match(c, r, opts));
  if (!n) throw notAcceptable(`only the following media types are accepted: ${supportedTypes(opts).join(', ')}`);
  if (opts.watch && n.format === 'yaml') {
    throw notAcceptable(`only the following media types are accepted: ${supportedStreamTypes(opts).join(', ')}`);
  }
  return n;
}

/**
 * The representation of an error Status (ErrorNegotiated: the same serializers with the default endpoint
 * restrictions, so no `as=` clause), or undefined when nothing is acceptable: the real server then writes
 * the Status as indented JSON.
 */
export function negotiateError(accept: string | null, cbor: boolean): Negotiated | undefined {
  return negotiateWith(accept, cbor, (c, r) => {
    const p = r.params;
    if (p['as'] !== undefined || p['g'] !== undefined || p['v'] !== undefined || (p['sv'] ?? '') !== '') return undefined;
    if ((p['stream'] ?? '') !== '' && (!c.stream || p['stream'] !== 'watch')) return undefined;
    return plain(c, r);
  });
}

function negotiateWith(accept: string | null, cbor: boolean, fn: (c: Candidate, r: MediaRange) => Negotiated | undefined): Negotiated | undefined {
  const cands = candidates(cbor);
  if (!accept || !accept.trim()) return plain(cands[0]);
  for (const r of parseAccept(accept)) {
    for (const c of cands) {
      const subtype = r.subtype === 'vnd.svc.protobuf' ? 'vnd.kubernetes.protobuf' : r.subtype;
      const hit = (r.type === c.type && (subtype === c.subtype || subtype === '*')) || (r.type === '*' && subtype === '*');
      if (!hit) continue;
      const n = fn(c, r);
      if (n) return n;
    }
  }
  return undefined;
}

function baseType(c: Candidate, r?: MediaRange): string {
  if (c.format === 'protobuf') return r?.subtype === 'vnd.svc.protobuf' ? PROTOBUF_SVC : PROTOBUF;
  return `${c.type}/${c.subtype}`;
}

function plain(c: Candidate, r?: MediaRange): Negotiated {
  return { format: c.format, contentType: baseType(c, r) };
}

function match(c: Candidate, r: MediaRange, opts: NegotiationOptions): Negotiated | undefined {
  const p = r.params;
  // stream=watch needs a stream serializer; sv must be meta's version (acceptMediaTypeOptions)
  if ((p['stream'] ?? '') !== '' && (!c.stream || p['stream'] !== 'watch')) return undefined;
  if ((p['sv'] ?? '') !== '' && p['sv'] !== 'v1') return undefined;
  const as = p['as'];
  const g = p['g'];
  const v = p['v'];
  if (as === undefined && g === undefined && v === undefined) {
    // no transformation: a custom resource (or a kind with no protobuf form) is not served as protobuf
    if (c.format === 'protobuf' && !opts.protobuf) return undefined;
    return plain(c, r);
  }
  if (!opts.allowAs) return undefined;
  if (!g || !META_GROUPS.has(g) || (v !== 'v1' && v !== 'v1beta1')) return undefined;
  if (as === 'Table') {
    // AllowsMediaTypeTransform: a Table only as JSON or YAML
    if (c.format !== 'json' && c.format !== 'yaml') return undefined;
  } else if (as !== 'PartialObjectMetadata' && as !== 'PartialObjectMetadataList') {
    return undefined;
  }
  return { format: c.format, as, asVersion: v, asGroup: g, contentType: `${baseType(c, r)};as=${as};g=${g};v=${v}` };
}

export type BodyFormat = 'json' | 'yaml' | 'cbor';

export type PatchKind = 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply-patch';

/** Maps a request Content-Type to a body format (for create/update) or patch kind (for PATCH). */
export function bodyMediaType(contentType: string | null): { full: string; format?: BodyFormat; patch?: PatchKind; apply?: 'yaml' | 'cbor' } {
  const m = parseMediaType(contentType ?? 'application/json');
  const full = m ? `${m.type}/${m.subtype}` : '';
  switch (full) {
    case '':
    case 'application/json':
      return { full: full || 'application/json', format: 'json' };
    case 'application/yaml':
      return { full, format: 'yaml' };
    case 'application/cbor':
      return { full, format: 'cbor' };
    case 'application/json-patch+json':
      return { full, patch: 'json-patch' };
    case 'application/merge-patch+json':
      return { full, patch: 'merge-patch' };
    case 'application/strategic-merge-patch+json':
      return { full, patch: 'strategic-merge-patch' };
    case 'application/apply-patch+yaml':
      return { full, patch: 'apply-patch', apply: 'yaml' };
    case 'application/apply-patch+cbor':
      return { full, patch: 'apply-patch', apply: 'cbor' };
    default:
      return { full };
  }
}
