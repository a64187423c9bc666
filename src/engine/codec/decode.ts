// Request bodies: JSON or YAML into plain values, with the duplicate-field detection the real server's
// strict decoders do, and malformed input rejected with the 400 the real v1.33 server gives on create:
//   JSON syntax:  the object provided is unrecognized (must be of type Deployment): couldn't get
//                 version/kind; json parse error: invalid character '}' after object key (7b2261...)
//   YAML syntax:  the object provided is unrecognized (must be of type ConfigMap): yaml: line 3: ... (...)
// (handlers/rest.go transformDecodeError + serializer/json/meta.go Interpret). Without `expectKind` the
// message is the inner part only (`couldn't get version/kind; json parse error: ...`).
//
// Numbers (see json.ts): JS numbers; integers exact up to 2^53. A JSON `1.0` becomes 1 like `1`; its path
// is listed in `nonIntegerNumbers` (Go would decode it as a float64 and refuse it for an integer field).
// A YAML `1.0` is a float that Go's JSON conversion writes as `1`, so it is an integer afterwards, as here.

import { badRequest, StatusError } from '../errors.js';
import { parseJson, JsonSyntaxError, JsonRangeError, jsonFieldOffsets } from './json.js';
import { MAX_NESTING_DEPTH } from './budgets.js';
import { parseYamlDocuments, YamlError } from './yaml.js';
import { goQuote } from './go-format.js';

export type BodyMediaType = 'json' | 'yaml';

export interface DecodeOptions {
  /** Nesting limit (default and maximum for YAML: MAX_NESTING_DEPTH, see budgets.ts). */
  maxDepth?: number;
  /**
   * The kind the endpoint decodes into (e.g. `Deployment`): when given, syntax errors are worded as the
   * create/update handlers word them (`the object provided is unrecognized (must be of type X): ...`).
   */
  expectKind?: string;
  /**
   * Check `apiVersion`/`kind` types like the real decoder's first pass (a list or a scalar body, a
   * non-string kind, `apiVersion: a/b/c` are 400s). Default: on when `expectKind` is given, else off, so
   * that patch documents (lists for JSON patch) decode too.
   */
  interpretKind?: boolean;
}

export interface DecodeResult {
  value: unknown;
  /** Field paths of duplicated keys (`metadata.name`, `spec.containers[0].image`), in report order. */
  duplicates: string[];
  /**
   * The strict-decoding texts for them as the real server words them: JSON `duplicate field "metadata.name"`,
   * YAML `line 5: key "name" already set in map`.
   */
  duplicateMessages: string[];
  mediaType: BodyMediaType;
  /** Paths of numbers Go decodes as float64 (written with a fraction or exponent). */
  nonIntegerNumbers: string[];
  /** JSON only: text offset of the occurrence that made each duplicate (same order as `duplicates`). */
  duplicateOffsets?: number[];
  /** JSON only: offset of the first occurrence of a field path (computed on first use). */
  fieldOffset?: (path: string) => number | undefined;
}

const INTERPRET_TYPE =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function goKindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** serializer/json/meta.go Interpret: the first pass reading apiVersion/kind. Returns an error text or null. */
export function interpretKindError(v: unknown): string | null {
  if (v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) {
    return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goKindOf(v)} into Go value of type ${INTERPRET_TYPE}`;
  }
  const o = v as Record<string, unknown>;
  for (const f of ['apiVersion', 'kind']) {
    const x = o[f];
    if (Object.prototype.hasOwnProperty.call(o, f) && x !== null && typeof x !== 'string') {
      return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goKindOf(x)} into Go struct field .${f} of type string`;
    }
  }
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  if (av !== '' && av !== '/' && av.split('/').length > 2) return `unexpected GroupVersion string: ${av}`;
  return null;
}

function toBytes(b: Uint8Array | string): Uint8Array {
  return typeof b === 'string' ? new TextEncoder().encode(b) : b;
}

// keep a BOM: Go does not skip it (it is an invalid character for JSON); one decoder for every body (a
// non-streaming decode keeps no state between calls)
const BODY_DECODER = new TextDecoder('utf-8', { ignoreBOM: true } as { fatal?: boolean });

function toText(b: Uint8Array | string): string {
  if (typeof b === 'string') return b;
  return BODY_DECODER.decode(b);
}

/** handlers/rest.go summarizeData: the body start, raw if it starts with `{`, else hex; 30 bytes at most. */
export function summarizeData(body: Uint8Array | string, maxLength = 30): string {
  const data = toBytes(body);
  if (data.length === 0) return '<empty>';
  const cut = data.length > maxLength;
  const head = cut ? data.subarray(0, maxLength) : data;
  let s: string;
  if (data[0] === 0x7b) s = new TextDecoder().decode(head);
  else s = Array.from(head, (b) => b.toString(16).padStart(2, '0')).join('');
  return cut ? `${s} ...` : s;
}

/** The 400 a create/update handler answers for a body it cannot decode (transformDecodeError). */
export function undecodableBody(inner: string, body: Uint8Array | string, expectKind?: string): StatusError {
  if (!expectKind) return badRequest(inner);
  return badRequest(`the object provided is unrecognized (must be of type ${expectKind}): ${inner} (${summarizeData(body)})`);
}

/**
 * Decodes a request body. Throws a 400 StatusError for malformed input (see the file comment); duplicate
 * fields are not errors here: they are returned for field validation (prune.ts fieldValidationResult).
 */
export function decodeBody(bytes: Uint8Array | string, mediaType: BodyMediaType, opts: DecodeOptions = {}): DecodeResult {
  const text = toText(bytes);
  const interpret = opts.interpretKind ?? opts.expectKind !== undefined;
  if (mediaType === 'json') {
    let parsed;
    try {
      parsed = parseJson(text, { maxDepth: opts.maxDepth ?? MAX_NESTING_DEPTH, maxDuplicates: 100 });
    } catch (e) {
      if (e instanceof JsonSyntaxError) {
        throw undecodableBody(`couldn't get version/kind; json parse error: ${e.message}`, bytes, opts.expectKind);
      }
      if (e instanceof JsonRangeError) throw badRequest(e.message);
      throw e;
    }
    if (interpret) {
      const err = interpretKindError(parsed.value);
      if (err) throw undecodableBody(err, bytes, opts.expectKind);
    }
    let offsets: Map<string, number> | undefined;
    const messages = parsed.duplicates.map((p) => `duplicate field ${goQuote(p)}`);
    const fieldOffset = (path: string) => (offsets ??= jsonFieldOffsets(text)).get(path);
    return {
      value: parsed.value,
      duplicates: attachDuplicateInfo(parsed.duplicates, { mediaType, messages, offsets: parsed.duplicateOffsets, fieldOffset }),
      duplicateMessages: messages,
      mediaType,
      nonIntegerNumbers: parsed.nonIntegerNumbers,
      duplicateOffsets: parsed.duplicateOffsets,
      fieldOffset,
    };
  }
  let docs;
  try {
    docs = parseYamlDocuments(text, { maxDepth: opts.maxDepth });
  } catch (e) {
    if (e instanceof YamlError) throw undecodableBody(e.message, bytes, opts.expectKind);
    throw e;
  }
  // go-yaml's Unmarshal reads the first document only; an empty stream is null
  const doc = docs[0] ?? { value: null, duplicates: [], duplicateMessages: [], nonIntegerNumbers: [] };
  if (interpret) {
    const err = interpretKindError(doc.value);
    if (err) throw undecodableBody(err, bytes, opts.expectKind);
  }
  return {
    value: doc.value,
    duplicates: attachDuplicateInfo(doc.duplicates, { mediaType, messages: doc.duplicateMessages }),
    duplicateMessages: doc.duplicateMessages,
    mediaType,
    nonIntegerNumbers: doc.nonIntegerNumbers,
  };
}

/**
 * What field validation needs besides the paths (messages, offsets), carried by the `duplicates` array
 * itself (a non-enumerable property) so that passing `result.duplicates` alone loses nothing.
 */
export interface DuplicateInfo {
  mediaType: BodyMediaType;
  messages: string[];
  offsets?: number[];
  fieldOffset?: (path: string) => number | undefined;
}

const INFO = Symbol.for('kube-api-playground.duplicateInfo');

export function attachDuplicateInfo(paths: string[], info: DuplicateInfo): string[] {
  Object.defineProperty(paths, INFO, { value: info, enumerable: false });
  return paths;
}

/** The information of a DecodeResult, or of a `duplicates` array that came out of one. */
export function duplicateInfo(d: string[] | DecodeResult): DuplicateInfo | undefined {
  if (!Array.isArray(d)) {
    return { mediaType: d.mediaType, messages: d.duplicateMessages, offsets: d.duplicateOffsets, fieldOffset: d.fieldOffset };
  }
  return (d as unknown as { [INFO]?: DuplicateInfo })[INFO];
}

/** The strict-decoding error text of YAML duplicates: `yaml: unmarshal errors:\n  line 5: ...`. */
export function yamlUnmarshalErrors(messages: string[]): string {
  return `yaml: unmarshal errors:\n  ${messages.join('\n  ')}`;
}

/**
 * All documents of a multi-document YAML text (`---` separated), for the UI. Empty documents are skipped
 * (as kubectl does). Throws a 400 StatusError on malformed YAML.
 */
export function splitYamlDocuments(text: string): unknown[] {
  try {
    return parseYamlDocuments(text).map((d) => d.value).filter((v) => v !== null && v !== undefined);
  } catch (e) {
    if (e instanceof YamlError) throw badRequest(e.message);
    throw e;
  }
}

export { encodeYaml } from './encode-yaml.js';
