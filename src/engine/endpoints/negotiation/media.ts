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

export type OutputFormat = 'json' | 'yaml' | 'cbor';

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
}

const META_GROUPS = new Set(['meta.k8s.io', 'meta.svc.io']);

export function supportedTypes(opts: NegotiationOptions): string[] {
  // a watch needs a stream serializer: YAML has none (NegotiateOutputMediaTypeStream)
  const t = opts.watch ? ['application/json'] : ['application/json', 'application/yaml'];
  if (opts.cbor) t.push(opts.watch ? 'application/cbor-seq' : 'application/cbor');
  return t;
}

/** Chooses the response representation, or throws 406 NotAcceptable with the real message. */
export function negotiate(accept: string | null, opts: NegotiationOptions): Negotiated {
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return { format: 'json', contentType: 'application/json' };
  for (const r of ranges) {
    const n = match(r, opts);
    if (n) return n;
  }
  throw notAcceptable(`only the following media types are accepted: ${supportedTypes(opts).join(', ')}`);
}

function match(r: MediaRange, opts: NegotiationOptions): Negotiated | undefined {
  const full = `${r.type}/${r.subtype}`;
  let format: OutputFormat | undefined;
  if (full === '*/*' || full === 'application/*' || full === 'application/json') format = 'json';
  else if (full === 'application/yaml' && !opts.watch) format = 'yaml';
  else if ((full === 'application/cbor' || (opts.watch && full === 'application/cbor-seq')) && opts.cbor) format = 'cbor';
  if (!format) return undefined;
  const as = r.params['as'];
  if (as === undefined) {
    // A g/v without `as` is only meaningful for discovery; treat as the plain type.
    const ct = format === 'json' ? 'application/json' : format === 'yaml' ? 'application/yaml' : opts.watch ? 'application/cbor-seq' : 'application/cbor';
    return { format, contentType: ct };
  }
  if (!opts.allowAs) return undefined;
  const g = r.params['g'];
  const v = r.params['v'];
  if (!g || !META_GROUPS.has(g)) return undefined;
  if (as === 'Table') {
    if (v !== 'v1' && v !== 'v1beta1') return undefined;
    if (format === 'yaml') return undefined; // the real server serves Table only as JSON (and protobuf)
  } else if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
    if (v !== 'v1' && v !== 'v1beta1') return undefined;
  } else {
    return undefined;
  }
  const base = format === 'json' ? 'application/json' : format === 'yaml' ? 'application/yaml' : 'application/cbor';
  return {
    format,
    as,
    asVersion: v,
    asGroup: g,
    contentType: `${base};as=${as};g=${g};v=${v}`,
  };
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
