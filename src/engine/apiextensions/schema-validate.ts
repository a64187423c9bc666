// Validation of a custom resource against its CRD's structural schema, as the real server does it with
// kube-openapi's schema validator [K8S apiextensions-apiserver/pkg/apiserver/validation] and converts the
// results to field errors (kubeOpenAPIResultToFieldErrors): type and format errors are "Invalid value" of
// type FieldValueTypeInvalid, required -> Required value, enum -> Unsupported value, maxLength -> Too long,
// maxItems/maxProperties -> Too many, the rest Invalid value with kube-openapi's message ("<path> in body
// should ..."). Paths are kube-openapi's: `spec.items[0].name`, map values as `spec.labels.key`.
// Also: list-type set/map uniqueness (structurallisttype) and embedded-resource metadata (schemaobjectmeta).

import { GoRepr, fieldErr, type FieldError } from '../errors.js';
import { isPlainObject } from '../object.js';
import type { Schema } from '../schema/types.js';
import { ext } from '../schema/types.js';
import { compileRE2, validateRE2 } from '../cel/lib/regex.js';
import { LruCache } from '../cel/lru.js';
import { isDNS1035Label, validateObjectMeta, nameIsPathSegment } from '../util/validation.js';
import type { ObjectMeta } from '../object.js';

const IN = 'body';

function regexpError(msg: string): string {
  return msg.startsWith('error parsing regexp: ') ? msg : `error parsing regexp: ${msg}`;
}

/** JSON data type names as kube-openapi reports them. */
export function dataType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(v) ? 'integer' : 'number';
    case 'bigint':
      return 'integer';
  }
  return 'object';
}

/** Go's %v of a float64 (strconv 'g' shortest: exponent form below 1e-4 and from 1e6). */
export function goFloat(n: number): string {
  if (n === 0 || !Number.isFinite(n)) return String(n);
  const exp = Math.floor(Math.log10(Math.abs(n)));
  const e = n.toExponential();
  const realExp = Number(e.slice(e.indexOf('e') + 1));
  if (realExp < -4 || realExp >= 6) {
    const [mant, ex] = e.split('e');
    const sign = ex.startsWith('-') ? '-' : '+';
    const digits = ex.replace(/^[+-]/, '');
    return `${mant}e${sign}${digits.padStart(2, '0')}`;
  }
  void exp;
  return String(n);
}

function quote(v: unknown): string {
  return JSON.stringify(String(v));
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const HOSTNAME = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DURATION_GO = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const DURATION_SCALA = /^\d+\s*(ns|nano|nanos|nanosecond|nanoseconds|us|micro|micros|microsecond|microseconds|ms|milli|millis|millisecond|milliseconds|s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hour|hours|d|day|days|w|wk|week|weeks)$/;
const MAC = /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{2}[:-]){19}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$|^([0-9a-fA-F]{4}\.){3}[0-9a-fA-F]{4}$|^([0-9a-fA-F]{4}\.){9}[0-9a-fA-F]{4}$/;
const HEXCOLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGBCOLOR = /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const BSONOID = /^[0-9a-fA-F]{24}$/;
const ISBN10 = /^(?:[0-9]{9}X|[0-9]{10})$/;
const ISBN13 = /^(?:[0-9]{13})$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1];
}

function isIPv4(s: string): boolean {
  const p = s.split('.');
  return p.length === 4 && p.every((x) => /^\d{1,3}$/.test(x) && Number(x) <= 255);
}
function isIPv6(s: string): boolean {
  if (!s.includes(':') || s.includes('%')) return false;
  let str = s;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(str);
  let groups = 8;
  if (v4) {
    if (!isIPv4(v4[1])) return false;
    str = str.slice(0, -v4[1].length) + '0:0';
  }
  void groups;
  const dbl = str.split('::');
  if (dbl.length > 2) return false;
  const parts = (x: string) => (x === '' ? [] : x.split(':'));
  const head = parts(dbl[0]);
  const tail = dbl.length === 2 ? parts(dbl[1]) : [];
  if (![...head, ...tail].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  groups = head.length + tail.length;
  return dbl.length === 2 ? groups < 8 : groups === 8;
}
function luhnish(s: string): boolean {
  const d = s.replace(/\D/g, '');
  return /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/.test(d);
}
function isbn10(s: string): boolean {
  const t = s.replace(/[\s-]/g, '');
  if (!ISBN10.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(t[i]);
  sum += t[9] === 'X' ? 100 : 10 * Number(t[9]);
  return sum % 11 === 0;
}
function isbn13(s: string): boolean {
  const t = s.replace(/[\s-]/g, '');
  if (!ISBN13.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(t[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(t[12]);
}

/** String formats kept by Kubernetes 1.33 (StripUnsupportedFormatsPostProcess); others are not checked. */
const FORMATS: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => BSONOID.test(s),
  uri: (s) => /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$|^\/\S*$/.test(s),
  email: (s) => EMAIL.test(s),
  hostname: (s) => HOSTNAME.test(s) && s.length <= 255,
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: (s) => {
    const m = /^(.+)\/(\d{1,3})$/.exec(s);
    if (!m) return false;
    if (isIPv4(m[1])) return Number(m[2]) <= 32;
    return isIPv6(m[1]) && Number(m[2]) <= 128;
  },
  mac: (s) => MAC.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isbn10(s) || isbn13(s),
  isbn10,
  isbn13,
  creditcard: luhnish,
  ssn: (s) => SSN.test(s),
  hexcolor: (s) => HEXCOLOR.test(s),
  rgbcolor: (s) => RGBCOLOR.test(s),
  byte: (s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0,
  password: () => true,
  date: (s) => {
    const m = DATE.exec(s);
    return !!m && validDate(+m[1], +m[2], +m[3]);
  },
  duration: (s) => DURATION_GO.test(s) || DURATION_SCALA.test(s),
  datetime: (s) => {
    const m = DATETIME.exec(s);
    return !!m && validDate(+m[1], +m[2], +m[3]) && +m[4] < 24 && +m[5] < 60 && +m[6] < 61;
  },
};

/** True when the format is one Kubernetes validates for custom resources. */
export function supportedFormat(format: string | undefined): boolean {
  return !!format && format.replace(/-/g, '') in FORMATS;
}

/** Compiled `pattern`s (bounded like the CEL regex cache). */
const patternCache = new LruCache<string, RegExp | null>(512);
function patternOf(p: string): RegExp | null {
  let r = patternCache.get(p);
  if (r === undefined) {
    try {
      r = compileRE2(p);
    } catch {
      r = null;
    }
    patternCache.set(p, r);
  }
  return r;
}

function types(s: Schema): string[] {
  if (ext<boolean>(s, 'int-or-string')) return ['integer', 'string'];
  return s.type ? [s.type] : [];
}

function typeOk(ts: string[], dt: string): boolean {
  if (ts.includes(dt)) return true;
  if (dt === 'integer' && ts.includes('number')) return true;
  return false;
}

/** A kube-openapi validation error before conversion. */
interface OErr {
  kind: 'required' | 'enum' | 'tooLong' | 'tooMany' | 'type' | 'invalid' | 'composite';
  path: string;
  value?: unknown;
  message: string;
  enumValues?: unknown[];
  max?: number;
  actual?: number;
}

function child(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function validateNode(s: Schema | undefined, v: unknown, path: string, out: OErr[], old: OldRef): void {
  if (!s) return;
  // ratcheting: an unchanged value (compared with the correlated old value) keeps its old errors quiet
  if (old.has && deepEq(old.value, v)) return;
  const ts = types(s);
  const dt = dataType(v);
  const p = path || '';
  const typeErr = (tn: string, val: unknown) => out.push({ kind: 'type', path, value: val, message: `${p} in ${IN} must be of type ${tn}: ${quote(val)}` });
  if (v === null || v === undefined) {
    if (ts.length && !s.nullable) typeErr(ts.join(','), 'null');
    checkEnum(s, v, path, out);
    return;
  }
  let typeFailed = false;
  if (ts.length && !typeOk(ts, dt)) {
    typeErr(ts.join(','), dt);
    typeFailed = true;
  }
  composite(s, v, path, out);
  if (typeof v === 'string' && !typeFailed) {
    const len = [...v].length;
    if (s.maxLength !== undefined && len > s.maxLength) out.push({ kind: 'tooLong', path, max: s.maxLength, message: '' });
    if (s.minLength !== undefined && len < s.minLength) out.push({ kind: 'invalid', path, value: v, message: `${p} in ${IN} should be at least ${s.minLength} chars long` });
    if (s.pattern !== undefined) {
      const re = patternOf(s.pattern);
      if (!re) out.push({ kind: 'invalid', path, value: v, message: `${p} in ${IN} should match '${s.pattern}, but pattern is invalid: ${regexpError(validateRE2(s.pattern) ?? 'invalid pattern')}'` });
      else if (!re.test(v)) out.push({ kind: 'invalid', path, value: v, message: `${p} in ${IN} should match '${s.pattern}'` });
    }
    if (s.format && supportedFormat(s.format) && !ts.includes('integer') && !ts.includes('number')) {
      if (!FORMATS[s.format.replace(/-/g, '')](v)) typeErr(s.format, v);
    } else if (s.format && supportedFormat(s.format) && ext<boolean>(s, 'int-or-string')) {
      if (!FORMATS[s.format.replace(/-/g, '')](v)) typeErr(s.format, v);
    }
  }
  if (typeof v === 'number' && !typeFailed) {
    if (s.multipleOf !== undefined && s.multipleOf > 0) {
      const q = v / s.multipleOf;
      if (!Number.isInteger(q) || !Number.isFinite(q)) out.push({ kind: 'invalid', path, value: v, message: `${p} in ${IN} should be a multiple of ${goFloat(s.multipleOf)}` });
    }
    if (s.maximum !== undefined) {
      const bad = s.exclusiveMaximum ? v >= s.maximum : v > s.maximum;
      if (bad) out.push({ kind: 'invalid', path, value: v, message: `${p} in ${IN} should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${goFloat(s.maximum)}` });
    }
    if (s.minimum !== undefined) {
      const bad = s.exclusiveMinimum ? v <= s.minimum : v < s.minimum;
      if (bad) out.push({ kind: 'invalid', path, value: v, message: `${p} in ${IN} should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${goFloat(s.minimum)}` });
    }
  }
  if (Array.isArray(v)) {
    if (s.items) {
      const oldArr = old.has && Array.isArray(old.value) ? old.value : undefined;
      v.forEach((item, i) => validateNode(s.items, item, `${p}[${i}]`, out, correlateItem(s, oldArr, item)));
    }
    if (!typeFailed) {
      if (s.minItems !== undefined && v.length < s.minItems) out.push({ kind: 'invalid', path, value: v.length, message: `${p} in ${IN} should have at least ${s.minItems} items` });
      if (s.maxItems !== undefined && v.length > s.maxItems) out.push({ kind: 'tooMany', path, actual: v.length, max: s.maxItems, message: '' });
      if (s.uniqueItems) {
        const seen = new Set<string>();
        let dup = false;
        for (const x of v) {
          const k = canonical(x);
          if (seen.has(k)) dup = true;
          seen.add(k);
        }
        if (dup) out.push({ kind: 'invalid', path, value: v, message: `${p} in ${IN} shouldn't contain duplicates` });
      }
    }
  }
  checkEnum(s, v, path, out);
  if (isPlainObject(v)) {
    const rec = v as Record<string, unknown>;
    const oldRec = old.has && isPlainObject(old.value) ? (old.value as Record<string, unknown>) : undefined;
    const n = Object.keys(rec).length;
    if (!typeFailed || ts.length === 0) {
      if (s.minProperties !== undefined && n < s.minProperties) out.push({ kind: 'invalid', path, value: n, message: `${p} in ${IN} should have at least ${s.minProperties} properties` });
      if (s.maxProperties !== undefined && n > s.maxProperties) out.push({ kind: 'tooMany', path, actual: n, max: s.maxProperties, message: '' });
    }
    const ap = s.additionalProperties;
    if (ap === false) {
      for (const k of Object.keys(rec)) {
        if (!(s.properties && k in s.properties)) out.push({ kind: 'invalid', path, message: `${p}.${k} in ${IN} is a forbidden property` });
      }
    } else if (ap && typeof ap === 'object') {
      for (const k of Object.keys(rec)) {
        if (s.properties && k in s.properties) continue;
        validateNode(ap, rec[k], `${p}.${k}`, out, oldRef(oldRec, k));
      }
    }
    for (const k of Object.keys(s.properties ?? {})) {
      if (k in rec) validateNode(s.properties![k], rec[k], child(path, k), out, oldRef(oldRec, k));
    }
    for (const k of s.required ?? []) {
      if (!(k in rec)) out.push({ kind: 'required', path: `${p}.${k}`, message: '' });
    }
  }
}

interface OldRef {
  has: boolean;
  value?: unknown;
}
const NO_OLD: OldRef = { has: false };

function oldRef(rec: Record<string, unknown> | undefined, k: string): OldRef {
  return rec && k in rec ? { has: true, value: rec[k] } : NO_OLD;
}

/** Old list items correlate only in list-type map (by keys) and set (by value), as ratcheting does. */
function correlateItem(s: Schema, oldArr: unknown[] | undefined, item: unknown): OldRef {
  if (!oldArr) return NO_OLD;
  const lt = ext<string>(s, 'list-type');
  if (lt === 'set') return oldArr.some((o) => deepEq(o, item)) ? { has: true, value: item } : NO_OLD;
  if (lt === 'map' && isPlainObject(item)) {
    const keys = ext<string[]>(s, 'list-map-keys') ?? [];
    const it = item as Record<string, unknown>;
    const match = oldArr.find((o) => isPlainObject(o) && keys.every((k) => deepEq((o as Record<string, unknown>)[k], it[k])));
    return match !== undefined ? { has: true, value: match } : NO_OLD;
  }
  return NO_OLD;
}

function checkEnum(s: Schema, v: unknown, path: string, out: OErr[]): void {
  if (!s.enum || s.enum.length === 0) return;
  const val = v === undefined ? null : v;
  if (s.enum.some((e) => deepEq(e, val))) return;
  out.push({ kind: 'enum', path, value: val, enumValues: s.enum, message: '' });
}

function composite(s: Schema, v: unknown, path: string, out: OErr[]): void {
  const run = (sub: Schema) => {
    const errs: OErr[] = [];
    validateNode(sub, v, path, errs, NO_OLD);
    return errs;
  };
  const q = JSON.stringify(path);
  if (s.anyOf?.length) {
    let best: OErr[] | undefined;
    let ok = false;
    for (const sub of s.anyOf) {
      const r = run(sub);
      if (r.length === 0) {
        ok = true;
        break;
      }
      best ??= r;
    }
    if (!ok) {
      out.push({ kind: 'composite', path: '', message: `${q} must validate at least one schema (anyOf)` });
      out.push(...(best ?? []));
    }
  }
  if (s.oneOf?.length) {
    let valid = 0;
    let best: OErr[] | undefined;
    for (const sub of s.oneOf) {
      const r = run(sub);
      if (r.length === 0) valid++;
      else if (valid === 0) best ??= r;
    }
    if (valid !== 1) {
      out.push({ kind: 'composite', path: '', message: `${q} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}` });
      if (valid === 0) out.push(...(best ?? []));
    }
  }
  if (s.allOf?.length) {
    let valid = 0;
    for (const sub of s.allOf) {
      const r = run(sub);
      if (r.length === 0) valid++;
      out.push(...r);
    }
    if (valid !== s.allOf.length) out.push({ kind: 'composite', path: '', message: `${q} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}` });
  }
  if (s.not) {
    if (run(s.not).length === 0) out.push({ kind: 'composite', path: '', message: `${q} must not validate the schema (not)` });
  }
}

export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) {
    const r = v as Record<string, unknown>;
    return `{${Object.keys(r).sort().map((k) => `${JSON.stringify(k)}:${canonical(r[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export function deepEq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return canonical(a) === canonical(b);
}

function toFieldErrors(prefix: string, errs: OErr[]): FieldError[] {
  return errs.map((e) => {
    const name = e.path.startsWith('.') ? e.path.slice(1) : e.path;
    const field = name ? (prefix ? `${prefix}.${name}` : name) : prefix || '<nil>';
    switch (e.kind) {
      case 'required':
        return fieldErr.required(field, '');
      case 'enum':
        return fieldErr.notSupported(field, e.value, (e.enumValues ?? []).map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));
      case 'tooLong':
        return fieldErr.tooLong(field, '', e.max ?? -1);
      case 'tooMany':
        return fieldErr.tooMany(field, e.actual ?? -1, e.max ?? -1);
      case 'type':
        return fieldErr.typeInvalid(field, e.value ?? '', e.message);
      case 'composite':
        return fieldErr.invalid(prefix || '<nil>', '', e.message);
      default:
        return fieldErr.invalid(field, e.value ?? '', e.message);
    }
  });
}

/**
 * Schema errors of a custom resource (or of its status with prefix 'status'). With `old`, unchanged parts
 * are not re-validated (CRD validation ratcheting, on by default since 1.30).
 */
export function validateAgainstSchema(schema: Schema, value: unknown, opts: { prefix?: string; old?: unknown; hasOld?: boolean } = {}): FieldError[] {
  const out: OErr[] = [];
  validateNode(schema, value, '', out, opts.hasOld ? { has: true, value: opts.old } : NO_OLD);
  return toFieldErrors(opts.prefix ?? '', out);
}

// ---------------------------------------------------------------------------------------------------
// list-type set / map uniqueness (structurallisttype.ValidateListSetsAndMaps)

function goMapRepr(m: Record<string, unknown>): GoRepr {
  const parts = Object.keys(m).sort().map((k) => `${JSON.stringify(k)}:${goValue(m[k])}`);
  return new GoRepr(`map[string]interface {}{${parts.join(', ')}}`);
}
export function goValue(v: unknown): string {
  if (isPlainObject(v)) return goMapRepr(v as Record<string, unknown>).text;
  if (Array.isArray(v)) return `[]interface {}{${v.map(goValue).join(', ')}}`;
  if (v === null || v === undefined) return 'interface {}(nil)';
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

export function validateListSetsAndMaps(s: Schema | undefined, v: unknown, path: string, out: FieldError[] = []): FieldError[] {
  if (!s) return out;
  if (Array.isArray(v)) {
    const lt = ext<string>(s, 'list-type');
    if (lt === 'set') {
      for (const i of nonUnique(v)) out.push(fieldErr.duplicate(`${path}[${i}]`, isPlainObject(v[i]) || Array.isArray(v[i]) ? new GoRepr(goValue(v[i])) : v[i]));
    } else if (lt === 'map') {
      const bad = v.findIndex((x) => x !== null && !isPlainObject(x));
      if (bad >= 0) out.push(fieldErr.invalid(`${path}[${bad}]`, v[bad], 'must be an object for an array of list-type map'));
      else if (v.length > 1) {
        const keys = ext<string[]>(s, 'list-map-keys') ?? [];
        const keyVals = v.map((x) => {
          const k: Record<string, unknown> = {};
          for (const f of keys) if (isPlainObject(x) && f in (x as Record<string, unknown>)) k[f] = (x as Record<string, unknown>)[f];
          return k;
        });
        for (const i of nonUnique(keyVals)) out.push(fieldErr.duplicate(`${path}[${i}]`, goMapRepr(keyVals[i])));
      }
    }
    if (s.items) v.forEach((x, i) => validateListSetsAndMaps(s.items, x, `${path}[${i}]`, out));
    return out;
  }
  if (isPlainObject(v)) {
    const rec = v as Record<string, unknown>;
    const ap = s.additionalProperties;
    if (ap && typeof ap === 'object') for (const k of Object.keys(rec)) validateListSetsAndMaps(ap, rec[k], `${path}[${k}]`, out);
    if (s.properties) for (const k of Object.keys(rec)) if (s.properties[k]) validateListSetsAndMaps(s.properties[k], rec[k], path ? `${path}.${k}` : k, out);
  }
  return out;
}

function nonUnique(items: unknown[]): number[] {
  const seen = new Map<string, number>();
  const idx: number[] = [];
  items.forEach((x, i) => {
    const k = canonical(x);
    const times = seen.get(k) ?? 0;
    if (times === 1) idx.push(i);
    seen.set(k, times + 1);
  });
  return idx;
}

// ---------------------------------------------------------------------------------------------------
// embedded resources (schemaobjectmeta.Validate, not at the resource root)

export function validateEmbedded(s: Schema | undefined, v: unknown, path: string, out: FieldError[] = []): FieldError[] {
  if (!s) return out;
  if (isPlainObject(v)) {
    const rec = v as Record<string, unknown>;
    if (ext<boolean>(s, 'embedded-resource')) validateEmbeddedResource(path, rec, out);
    for (const k of Object.keys(rec)) {
      const prop = s.properties?.[k];
      if (prop) validateEmbedded(prop, rec[k], path ? `${path}.${k}` : k, out);
      else if (s.additionalProperties && typeof s.additionalProperties === 'object') validateEmbedded(s.additionalProperties, rec[k], `${path}[${k}]`, out);
    }
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => validateEmbedded(s.items, x, `${path}[${i}]`, out));
  }
  return out;
}

function validateEmbeddedResource(path: string, x: Record<string, unknown>, out: FieldError[]): void {
  const p = (c: string) => (path ? `${path}.${c}` : c);
  if (!('apiVersion' in x)) out.push(fieldErr.required(p('apiVersion'), 'must not be empty'));
  if (!('kind' in x)) out.push(fieldErr.required(p('kind'), 'must not be empty'));
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (k === 'apiVersion') {
      if (typeof v !== 'string') out.push(fieldErr.invalid(p('apiVersion'), v, 'must be a string'));
      else if (v.length === 0) out.push(fieldErr.invalid(p('apiVersion'), v, 'must not be empty'));
      else if (v.split('/').length > 2) out.push(fieldErr.invalid(p('apiVersion'), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') out.push(fieldErr.invalid(p('kind'), v, 'must be a string'));
      else if (v.length === 0) out.push(fieldErr.invalid(p('kind'), v, 'must not be empty'));
      else {
        const errs = isDNS1035Label(v.toLowerCase());
        if (errs.length) out.push(fieldErr.invalid(p('kind'), v, 'may have mixed case, but should otherwise match: ' + errs.join(',')));
      }
    } else if (k === 'metadata' && isPlainObject(v)) {
      const meta = { ...(v as ObjectMeta) };
      if (!meta.name) meta.name = 'fakename';
      const errs = validateObjectMeta(meta, { namespaced: !!meta.namespace, nameValidator: nameIsPathSegment });
      for (const e of errs) out.push({ ...e, field: `${p('metadata')}${e.field.replace(/^metadata/, '')}` });
    }
  }
}
