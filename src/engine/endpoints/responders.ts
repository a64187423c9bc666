// Turns results and StatusErrors into HTTP responses [K8S handlers/responsewriters]. JSON is compact with a
// trailing newline, as the real server writes it; pretty=true (or a curl/browser User-Agent, as the real
// server decides) indents by two spaces.

import { dump } from 'js-yaml';
import { StatusError, internalError, type Status } from '../errors.js';
import { negotiateError, type Negotiated } from './negotiation/media.js';
import { encodeProtobufObject } from '../codec/protobuf/encode.js';
import { encodeCbor } from './negotiation/encode.js';
import { carryResponseObject, noteResponseObject } from '../audit/log.js';
import { EngineResponse } from './wire.js';
import { goJsonText } from '../codec/go-format.js';

export interface ResponseOptions {
  negotiated?: Negotiated;
  pretty?: boolean;
  headers?: Record<string, string>;
  warnings?: string[];
  /** The body's compact JSON (with its trailing newline) where it is already made: used for a compact JSON answer. */
  compactJson?: () => string | Uint8Array<ArrayBuffer>;
  /**
   * For error Statuses: the request's Accept header (and whether CBOR is served), negotiated as
   * ErrorNegotiated does; nothing acceptable writes the Status as indented JSON.
   */
  errorAccept?: { accept: string | null; cbor: boolean };
}

/** The real server pretty-prints for `pretty=true` and for curl/wget/browsers (handlers.isPrettyPrint). */
export function wantsPretty(query: URLSearchParams, userAgent: string | null): boolean {
  const p = query.get('pretty');
  if (p !== null) return p === '' || p === 'true' || p === '1' || p === 't' || p === 'True' || p === 'TRUE';
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

export function encodeJson(body: unknown, pretty: boolean): string {
  return goJsonText(pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body)) + '\n';
}

export function encodeYaml(body: unknown): string {
  // the real YAML serializer marshals JSON, then converts it with sorted keys (sigs.k8s.io/yaml JSONToYAML)
  return dump(body, { lineWidth: -1, noRefs: true, sortKeys: true, quoteStyle: 'double', seqNoIndent: true });
}

/**
 * Warning header value for one warning text: `299 - "text"` with `"` and `\` escaped and everything else
 * written as is (net.NewWarningHeader); undefined for a text holding control characters, which the real
 * server refuses to put in a header and drops.
 */
export function warningHeader(text: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f-\x9f]/.test(text)) return undefined;
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** The real server's limits on a response's warnings (filters/warning.go): in all, and per text once over. */
const WARNINGS_TOTAL_RUNES = 4 * 1024;
const WARNING_ITEM_RUNES = 256;

/** Characters (code points) of a text, as Go counts runes. */
function runeCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * The Warning header values of a response's warnings as the real server's warning recorder writes them: each
 * text once (the first time), empty texts none; when the texts would pass 4,096 characters in all, every
 * text recorded so far is written again cut to 256 characters, later ones are cut too, and once that total
 * is passed again the rest are dropped.
 */
export function warningHeaders(texts: readonly string[]): string[] {
  let out: string[] = [];
  if (texts.length === 0) return out;
  const recorded = new Set<string>();
  const ordered: string[] = [];
  let written = 0;
  let truncating = false;
  const cut = (text: string, n: number): [string, number] =>
    n > WARNING_ITEM_RUNES ? [Array.from(text).slice(0, WARNING_ITEM_RUNES).join(''), WARNING_ITEM_RUNES] : [text, n];
  for (const text of texts) {
    if (!text) continue;
    if (truncating && written >= WARNINGS_TOTAL_RUNES) break;
    if (recorded.has(text)) continue;
    recorded.add(text);
    ordered.push(text);
    let [t, n] = [text, runeCount(text)];
    if (truncating) [t, n] = cut(t, n);
    const h = warningHeader(t);
    if (h === undefined) continue;
    if (written + n <= WARNINGS_TOTAL_RUNES || truncating) {
      written += n;
      out.push(h);
      continue;
    }
    // over the limit: from here on every text is cut, those written so far again
    truncating = true;
    written = 0;
    out = [];
    for (const w of ordered) {
      const [wt, wn] = cut(w, runeCount(w));
      const wh = warningHeader(wt);
      if (wh === undefined) continue;
      written += wn;
      out.push(wh);
    }
  }
  return out;
}

const UTF8 = new TextEncoder();

/**
 * A header value as the bytes the real server writes: its UTF-8 encoding, one byte per character (the
 * ByteString a fetch Headers object and node:http carry unchanged to the wire). Control characters but
 * tab (CR and LF would end the header; node:http refuses the others) become spaces. Every header of a
 * built response passes here, so no value a client chose (a field name in a warning, a name in a
 * Location) can make the response fail after a write.
 */
export function headerValue(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' ');
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(clean)) return clean;
  let out = '';
  for (const b of UTF8.encode(clean)) out += String.fromCharCode(b);
  return out;
}

export function respond(status: number, body: unknown, opts: ResponseOptions = {}): EngineResponse {
  // header pairs, not a Headers object: the Response builds its own list from them (a Headers object
  // first costs as much again on Node)
  const neg = opts.negotiated;
  let payload: string | Uint8Array<ArrayBuffer>;
  let contentType: string;
  if (neg?.format === 'yaml') {
    payload = encodeYaml(body);
    contentType = neg.contentType;
  } else if (neg?.format === 'protobuf') {
    payload = encodeProtobufObject(body as Record<string, unknown>) as Uint8Array<ArrayBuffer>;
    contentType = neg.contentType;
  } else if (neg?.format === 'cbor') {
    payload = encodeCbor(body);
    contentType = neg.contentType;
  } else {
    payload = opts.compactJson && !opts.pretty ? opts.compactJson() : encodeJson(body, opts.pretty ?? false);
    contentType = neg?.contentType ?? 'application/json';
  }
  const headers: [string, string][] = [['Cache-Control', 'no-cache, private'], ['Content-Type', contentType]];
  if (opts.headers) {
    for (const [k, v] of Object.entries(opts.headers)) {
      // a later value of the same name replaces an earlier one, as Headers.set does
      const lower = k.toLowerCase();
      const at = headers.findIndex(([n]) => n.toLowerCase() === lower);
      if (at >= 0) headers.splice(at, 1);
      headers.push([k, headerValue(v)]);
    }
  }
  if (opts.warnings) for (const h of warningHeaders(opts.warnings)) headers.push(['Warning', headerValue(h)]);
  const res = noteResponseObject(new EngineResponse(payload, { status, headers }), body);
  if (opts.warnings?.length) WARNING_TEXTS.set(res, opts.warnings);
  return res;
}

/** The warning texts a response's Warning headers were written from (respond() keeps them). */
const WARNING_TEXTS = new WeakMap<EngineResponse, readonly string[]>();

/**
 * The texts a response's Warning headers were written from, before the recorder's rule cut or dropped any;
 * undefined for a response respond() did not write or that has no warnings.
 */
export function warningTextsOf(res: EngineResponse): readonly string[] | undefined {
  return WARNING_TEXTS.get(res);
}

export function respondStatus(e: StatusError, opts: ResponseOptions = {}): EngineResponse {
  const headers = { ...e.headers, ...(opts.headers ?? {}) };
  const warnings = e.warnings?.length ? [...(opts.warnings ?? []), ...e.warnings] : opts.warnings;
  if (opts.errorAccept) {
    // ErrorNegotiated: the Status in the first acceptable serializer (never a Table); with none, WriteRawJSON
    const neg = negotiateError(opts.errorAccept.accept, opts.errorAccept.cbor);
    if (!neg) {
      const res = respond(e.status.code, e.status, { ...opts, negotiated: undefined, headers, warnings });
      const raw = carryResponseObject(res, new EngineResponse(goJsonText(JSON.stringify(e.status, null, 2)), { status: res.status, headers: res.headers }));
      if (warnings?.length) WARNING_TEXTS.set(raw, warnings);
      return raw;
    }
    return respond(e.status.code, e.status, { ...opts, negotiated: neg, headers, warnings });
  }
  // Status bodies are always JSON (or YAML when that was negotiated), never a Table.
  const neg = opts.negotiated?.format === 'yaml' ? { format: 'yaml' as const, contentType: 'application/yaml' } : undefined;
  return respond(e.status.code, e.status, { ...opts, negotiated: neg, headers, warnings });
}

export function respondError(e: unknown, opts: ResponseOptions = {}): EngineResponse {
  if (e instanceof StatusError) return respondStatus(e, opts);
  const message = e instanceof Error ? e.message : String(e);
  return respondStatus(internalError(message), opts);
}

export function successStatus(details?: Status['details']): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return { kind: s.kind, apiVersion: s.apiVersion, metadata: s.metadata, status: s.status, ...(details ? { details } : {}), code: s.code } as Status;
}
