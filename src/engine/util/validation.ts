// Name and metadata validation with the messages of k8s.io/apimachinery v0.33 (pkg/util/validation and
// pkg/api/validation/objectmeta.go). The string checks return lists of messages; the metadata checks return
// FieldErrors with the paths the real server uses.

import { fieldErr, type FieldError } from '../errors.js';
import type { ObjectMeta } from '../object.js';
import { BoundedMemo } from './bounded-memo.js';

const QNAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QNAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QNAME_RE = new RegExp(`^${QNAME_FMT}$`);
const LABEL_VALUE_FMT = `(${QNAME_FMT})?`;
const LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const CONFIGMAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIGMAP_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const CONFIGMAP_KEY_RE = new RegExp(`^${CONFIGMAP_KEY_FMT}$`);
const ENV_VAR_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_MSG = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const ENV_VAR_RE = new RegExp(`^${ENV_VAR_FMT}$`);
const C_IDENT_FMT = '[A-Za-z_][A-Za-z0-9_]*';
const C_IDENT_MSG = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";

export const FIELD_IMMUTABLE = 'field is immutable';
export const IS_NEGATIVE = 'must be greater than or equal to 0';
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** Byte length as Go's len() of a string (UTF-8). */
export function byteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return `${s}regex used for validation is '${fmt}')`;
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

export function isQualifiedName(value: string): string[] {
  // label and annotation keys and finalizer names repeat from write to write: the valid ones are known
  if (validQualifiedNames.has(value)) return [];
  const errs = qualifiedNameErrors(value);
  if (errs.length === 0) validQualifiedNames.set(value, true);
  return errs;
}

/** Qualified names found valid (a pure check of the text), bounded. */
const validQualifiedNames = new BoundedMemo<string, true>(1024);

function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [`a qualified name ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!QNAME_RE.test(name)) errs.push(`name part ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL_RE.test(value)) {
    if (DNS1123_SUBDOMAIN_RE.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

function chDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!CONFIGMAP_KEY_RE.test(value)) errs.push(regexError(CONFIGMAP_KEY_MSG, CONFIGMAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...chDirPrefix(value));
  return errs;
}

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_RE.test(value)) errs.push(regexError(ENV_VAR_MSG, ENV_VAR_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  errs.push(...chDirPrefix(value));
  return errs;
}

export function isCIdentifier(value: string): string[] {
  return new RegExp(`^${C_IDENT_FMT}$`).test(value) ? [] : [regexError(C_IDENT_MSG, C_IDENT_FMT, 'my_name', 'MY_NAME', 'MyName')];
}

export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** IPv4 or IPv6 literal as Go's netip would accept it (no zones, no leading zeros in IPv4). */
export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}

export function isIP(s: string): boolean {
  if (isIPv4(s)) return true;
  if (!s.includes(':') || s.includes('%')) return false;
  let rest = s;
  const lastColon = s.lastIndexOf(':');
  let groupsNeeded = 8;
  if (s.slice(lastColon + 1).includes('.')) {
    if (!isIPv4(s.slice(lastColon + 1))) return false;
    rest = s.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = rest.split('::');
  if (dbl.length > 2) return false;
  const grp = (x: string) => (x === '' ? [] : x.split(':'));
  const head = grp(dbl[0]);
  const tail = dbl.length === 2 ? grp(dbl[1]) : [];
  const all = [...head, ...tail];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  if (dbl.length === 2) return all.length < groupsNeeded;
  groupsNeeded = 8;
  return all.length === groupsNeeded;
}

// ---------------------------------------------------------------------------------------------------
// Name validators (apimachinery/pkg/api/validation): `prefix` is true when validating generateName.

export type NameValidator = (name: string, prefix: boolean) => string[];

/** A generateName may end with '-': validate it as if the trailing dash were a letter. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** path.IsValidPathSegmentName / IsValidPathSegmentPrefix: names of RBAC objects and others. */
export const nameIsPathSegment: NameValidator = (name, prefix) => {
  const errs: string[] = [];
  if (!prefix) {
    if (name === '.' || name === '..') errs.push(`may not be '${name}'`);
  }
  for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
};

// ---------------------------------------------------------------------------------------------------
// ObjectMeta

export interface ObjectMetaOptions {
  namespaced: boolean;
  nameValidator: NameValidator;
}

export function validateLabels(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!labels || typeof labels !== 'object') return errs;
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    for (const m of isQualifiedName(k)) errs.push(fieldErr.invalid(path, k, m));
    for (const m of isValidLabelValue(String(v ?? ''))) errs.push(fieldErr.invalid(path, v, m));
  }
  return errs;
}

export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!annotations || typeof annotations !== 'object') return errs;
  let size = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(fieldErr.invalid(path, k, m));
    size += byteLength(k) + byteLength(String(v ?? ''));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(fieldErr.tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

function validateOwnerReferences(refs: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(refs)) return errs;
  let firstController = '';
  for (const r of refs as Record<string, unknown>[]) {
    const apiVersion = String(r?.apiVersion ?? '');
    const kind = String(r?.kind ?? '');
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    if (!version) errs.push(fieldErr.invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!kind) errs.push(fieldErr.invalid(`${path}.kind`, kind, 'kind must not be empty'));
    if (!r?.name) errs.push(fieldErr.invalid(`${path}.name`, String(r?.name ?? ''), 'name must not be empty'));
    if (!r?.uid) errs.push(fieldErr.invalid(`${path}.uid`, String(r?.uid ?? ''), 'uid must not be empty'));
    if (group === '' && version === 'v1' && kind === 'Event') {
      errs.push(fieldErr.invalid(path, r, '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (r?.controller === true) {
      const cur = `${kind}/${String(r.name ?? '')}`;
      if (firstController) {
        errs.push(fieldErr.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`));
      } else firstController = cur;
    }
  }
  return errs;
}

function validateFinalizers(finalizers: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(finalizers)) return errs;
  for (const f of finalizers) for (const m of isQualifiedName(String(f))) errs.push(fieldErr.invalid(path, f, m));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push(fieldErr.invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function validateManagedFields(entries: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(entries)) return errs;
  entries.forEach((e: Record<string, unknown>, i) => {
    const p = `${path}[${i}]`;
    const op = e?.operation;
    if (op !== 'Apply' && op !== 'Update') errs.push(fieldErr.invalid(`${p}.operation`, op ?? '', 'must be `Apply` or `Update`'));
    if (e?.fieldsType && e.fieldsType !== 'FieldsV1') errs.push(fieldErr.invalid(`${p}.fieldsType`, e.fieldsType, 'must be `FieldsV1`'));
    const manager = typeof e?.manager === 'string' ? e.manager : '';
    if (byteLength(manager) > 128) errs.push(fieldErr.tooLong(`${p}.manager`, '', 128));
    if (typeof e?.subresource === 'string' && byteLength(e.subresource) > 256) errs.push(fieldErr.tooLong(`${p}.subresource`, '', 256));
  });
  return errs;
}

/** ValidateObjectMeta (plus the core API's finalizer-name rule for non-qualified names). */
export function validateObjectMeta(meta: ObjectMeta | undefined, opts: ObjectMetaOptions): FieldError[] {
  const m = meta ?? {};
  const errs: FieldError[] = [];
  const generateName = typeof m.generateName === 'string' ? m.generateName : '';
  if (generateName) {
    for (const msg of opts.nameValidator(generateName, true)) errs.push(fieldErr.invalid('metadata.generateName', generateName, msg));
  }
  const name = typeof m.name === 'string' ? m.name : '';
  if (!name) errs.push(fieldErr.required('metadata.name', 'name or generateName is required'));
  else for (const msg of opts.nameValidator(name, false)) errs.push(fieldErr.invalid('metadata.name', name, msg));
  const ns = typeof m.namespace === 'string' ? m.namespace : '';
  if (opts.namespaced) {
    if (!ns) errs.push(fieldErr.required('metadata.namespace', ''));
    else for (const msg of nameIsDNSLabel(ns, false)) errs.push(fieldErr.invalid('metadata.namespace', ns, msg));
  } else if (ns) {
    errs.push(fieldErr.forbidden('metadata.namespace', 'not allowed on this type'));
  }
  if (typeof m.generation === 'number' && m.generation < 0) errs.push(fieldErr.invalid('metadata.generation', m.generation, IS_NEGATIVE));
  errs.push(...validateLabels(m.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(m.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(m.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateFinalizers(m.finalizers, 'metadata.finalizers'));
  errs.push(...validateManagedFields(m.managedFields, 'metadata.managedFields'));
  return errs;
}

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** The core API group's extra rule: a finalizer without '/' must be a standard one. */
export function validateKubeFinalizerNames(meta: ObjectMeta | undefined): FieldError[] {
  const errs: FieldError[] = [];
  (meta?.finalizers ?? []).forEach((f, i) => {
    if (!String(f).includes('/') && !STANDARD_FINALIZERS.has(String(f))) {
      errs.push(fieldErr.invalid(`metadata.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** ValidateObjectMetaUpdate: immutable identity fields, resourceVersion required, generation monotonic. */
export function validateObjectMetaUpdate(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined): FieldError[] {
  const n = newMeta ?? {};
  const o = oldMeta ?? {};
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) {
    const old = new Set(o.finalizers ?? []);
    const extra = [...new Set((n.finalizers ?? []).filter((f) => !old.has(f)))].sort();
    if (extra.length) {
      errs.push(fieldErr.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`));
    }
  }
  if (!n.resourceVersion) errs.push(fieldErr.invalid('metadata.resourceVersion', n.resourceVersion ?? '', 'must be specified for an update'));
  if ((n.generation ?? 0) < (o.generation ?? 0)) errs.push(fieldErr.invalid('metadata.generation', n.generation ?? 0, 'must not be decremented'));
  const immutable: (keyof ObjectMeta)[] = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'];
  for (const k of immutable) {
    const nv = n[k] ?? (k === 'name' || k === 'namespace' || k === 'uid' ? '' : null);
    const ov = o[k] ?? (k === 'name' || k === 'namespace' || k === 'uid' ? '' : null);
    if (!jsonEqual(nv, ov)) errs.push(fieldErr.invalid(`metadata.${String(k)}`, nv, FIELD_IMMUTABLE));
  }
  errs.push(...validateLabels(n.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(n.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(n.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateManagedFields(n.managedFields, 'metadata.managedFields'));
  return errs;
}

/** ValidateImmutableField. */
export function validateImmutable(newVal: unknown, oldVal: unknown, path: string): FieldError[] {
  return jsonEqual(newVal, oldVal) ? [] : [fieldErr.invalid(path, newVal, FIELD_IMMUTABLE)];
}

export function validateNonnegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [fieldErr.invalid(path, value, IS_NEGATIVE)] : [];
}
