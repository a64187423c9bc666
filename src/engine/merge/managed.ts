// metadata.managedFields <-> managers (k8s.io/apimachinery managedfields internal): manager identifiers,
// decoding with the real validity rules, encoding in the real order, and the cap on Update entries.

import type { JsonObject, JsonValue, ManagedFieldsEntry } from '../object.js';
import { FieldSet } from '../fieldpath/set.js';
import { compareStrings, goJSONString, goQuote } from '../fieldpath/value.js';
import { BoundedMemo } from '../util/bounded-memo.js';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Managers by identifier, with the time of each one's last change (undefined: no time recorded). */
export interface Managed {
  fields: Map<string, VersionedSet>;
  times: Map<string, string | undefined>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

export interface ManagerInfo {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  subresource?: string;
}

/**
 * The identity of an entry: the JSON of {manager, operation, apiVersion, subresource} without empty
 * values. Appliers leave apiVersion out, so an applier keeps one entry whichever version it applies.
 */
export function managerIdentifier(info: ManagerInfo): string {
  // the same few managers write again and again: each identifier is written once (bounded)
  // (lengths first: any text may stand in any member, so no separator alone would keep the keys apart)
  const op = info.operation ?? '';
  const v = info.apiVersion ?? '';
  const sub = info.subresource ?? '';
  const key = `${op.length}:${v.length}:${sub.length}:${op}${v}${sub}${info.manager ?? ''}`;
  const known = identifierTexts.get(key);
  if (known !== undefined) return known;
  return identifierTexts.set(key, writeIdentifier(info));
}

const identifierTexts = new BoundedMemo<string, string>(256);

function writeIdentifier(info: ManagerInfo): string {
  const parts: string[] = [];
  if (info.manager) parts.push(`"manager":${goJSONString(info.manager)}`);
  if (info.operation) parts.push(`"operation":${goJSONString(info.operation)}`);
  if (info.apiVersion && info.operation !== 'Apply') parts.push(`"apiVersion":${goJSONString(info.apiVersion)}`);
  if (info.subresource) parts.push(`"subresource":${goJSONString(info.subresource)}`);
  return `{${parts.join(',')}}`;
}

export function parseIdentifier(id: string): ManagerInfo | undefined {
  // a handful of identifiers, parsed on every write's encoding: kept (bounded); callers only read them
  const known = identifiers.get(id);
  if (known !== undefined || identifiers.has(id)) return known;
  let info: ManagerInfo | undefined;
  try {
    const v = JSON.parse(id) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) info = Object.freeze(v) as ManagerInfo;
  } catch {
    /* not an identifier (e.g. a raw name) */
  }
  return identifiers.set(id, info);
}

const identifiers = new BoundedMemo<string, ManagerInfo | undefined>(256);

/** How a conflict names a manager: `"mgr"`, `"mgr" using apps/v1`, `"mgr" with subresource "status" using v1`. */
export function printManager(id: string): string {
  const info = parseIdentifier(id);
  if (!info) return goQuote(id);
  let s = goQuote(info.manager ?? '');
  if (info.subresource) s += ` with subresource ${goQuote(info.subresource)}`;
  if (info.operation === 'Update') s += ` using ${info.apiVersion ?? ''}`;
  return s;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Decoded fieldsV1 by their JSON text. Every write decodes the live object's entries again and most of
// them have not changed since the last write, so their (immutable) field sets are shared: the text costs
// a fraction of parsing the keys and building the set. Bounded; emptied when full.
const decodedSets = new BoundedMemo<string, FieldSet>(256);

function decodeFieldsV1(v: JsonValue): FieldSet {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return FieldSet.fromFieldsV1(v);
  // a frozen value cannot change: its set is found by identity (a stored object read again, a 409 retried)
  const frozen = Object.isFrozen(v);
  let set = frozen ? setsByValue.get(v) : undefined;
  if (set) return set;
  const text = JSON.stringify(v);
  set = decodedSets.get(text);
  if (!set) {
    set = FieldSet.fromFieldsV1(v); // a malformed entry throws and is not kept
    decodedSets.set(text, set);
  }
  if (frozen) setsByValue.set(v, set);
  return set;
}

const setsByValue = new WeakMap<object, FieldSet>();

// Encoded fieldsV1 by (immutable) set: most managers' sets are the same objects from one write to the next
// (decoded once, see above; an applier or updater whose fields did not change keeps its set, updater.ts),
// so each is written once. The encoding is deeply frozen: objects share it, as stored objects share theirs.
const encodedSets = new WeakMap<FieldSet, JsonObject>();

function encodeFieldsV1(set: FieldSet): JsonObject {
  let v = encodedSets.get(set);
  if (v) return v;
  v = freezeDeep(set.toFieldsV1());
  encodedSets.set(set, v);
  // Not kept by value: stored states share this encoding (frozenCopy takes frozen values as they are), so
  // an entry here would keep every stored object's decoded set alive as long as the object (the scale
  // bench's heap went from 2.4x to 5.7x of the stored JSON). The next write decodes it by its text, from the
  // bounded cache above, as it did before the states shared it.
  return v;
}

/** One frozen `{}` for every leaf of every encoding (a set's leaves are most of its objects), as frozenCopy shares its empty objects. */
const EMPTY_LEAF: JsonObject = Object.freeze({}) as JsonObject;

function freezeDeep(o: JsonObject): JsonObject {
  for (const k in o) {
    const child = o[k] as JsonObject;
    if (typeof child !== 'object' || child === null) continue;
    let empty = true;
    for (const _ in child) {
      empty = false;
      break;
    }
    if (empty) o[k] = EMPTY_LEAF;
    else freezeDeep(child);
  }
  return Object.freeze(o);
}

const idsByEntry = new WeakMap<object, string>();

/** DecodeManagedFields: throws on an entry the real decoder rejects. */
export function decodeManagedFields(entries: unknown): Managed {
  const out = emptyManaged();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw new Error('managedFields must be a list');
  entries.forEach((e, i) => {
    if (!isPlain(e)) throw new Error(`invalid managed fields entry ${i}`);
    const op = e.operation;
    if (op !== 'Apply' && op !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (typeof e.apiVersion !== 'string' || e.apiVersion.length < 1) throw new Error('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    if (e.manager !== undefined && typeof e.manager !== 'string') throw new Error(`invalid manager in managed fields entry ${i}`);
    if (e.subresource !== undefined && typeof e.subresource !== 'string') throw new Error(`invalid subresource in managed fields entry ${i}`);
    // a frozen entry (of a stored object) cannot change: its identifier is worked out once
    let id = idsByEntry.get(e);
    if (id === undefined) {
      id = managerIdentifier({ manager: e.manager as string | undefined, operation: op, apiVersion: e.apiVersion, subresource: e.subresource as string | undefined });
      if (Object.isFrozen(e)) idsByEntry.set(e, id);
    }
    let set: FieldSet;
    try {
      set = decodeFieldsV1((e.fieldsV1 ?? {}) as JsonValue);
    } catch (err) {
      throw new Error(`error decoding versioned set: error decoding set: ${(err as Error).message}`);
    }
    out.fields.set(id, { set, apiVersion: e.apiVersion, applied: op === 'Apply' });
    out.times.set(id, typeof e.time === 'string' ? e.time : undefined);
  });
  return out;
}

export function timeSeconds(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Entries in the real order: Apply before Update, then by time, manager, apiVersion, subresource. */
export function encodeManagedFields(m: Managed): ManagedFieldsEntry[] | undefined {
  if (m.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of m.fields) {
    const info = parseIdentifier(id) ?? {};
    const e: ManagedFieldsEntry = {};
    if (info.manager) e.manager = info.manager;
    e.operation = vs.applied ? 'Apply' : ((info.operation as 'Apply' | 'Update' | undefined) ?? 'Update');
    e.apiVersion = vs.apiVersion;
    const t = m.times.get(id);
    if (t) e.time = t;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = encodeFieldsV1(vs.set);
    if (info.subresource) e.subresource = info.subresource;
    entries.push(e);
  }
  entries.sort((p, q) => {
    if (p.operation !== q.operation) return compareStrings(p.operation ?? '', q.operation ?? '');
    const ps = timeSeconds(p.time);
    const qs = timeSeconds(q.time);
    if (ps !== qs) return ps - qs;
    if (p.manager !== q.manager) return compareStrings(p.manager ?? '', q.manager ?? '');
    if (p.apiVersion !== q.apiVersion) return compareStrings(p.apiVersion ?? '', q.apiVersion ?? '');
    return compareStrings(p.subresource ?? '', q.subresource ?? '');
  });
  return entries;
}

export const MAX_UPDATE_MANAGERS = 10;
export const ANCIENT_CHANGES = 'ancient-changes';

/** More than 10 Update entries: the oldest are merged, per apiVersion, into `ancient-changes`. */
export function capUpdateManagers(m: Managed, max = MAX_UPDATE_MANAGERS): void {
  if (m.fields.size <= max) return; // at most `max` entries, so at most `max` updaters
  const updaters = [...m.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => {
    const d = timeSeconds(m.times.get(a)) - timeSeconds(m.times.get(b));
    if (d !== 0) return d;
    return compareStrings(a, b);
  });
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = m.fields.get(id)!;
    const time = m.times.get(id);
    const version = vs.apiVersion;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: version });
    const first = firstByVersion.get(version);
    if (first !== undefined) {
      if (!m.fields.has(bucket)) {
        const s = m.fields.get(first)!;
        m.fields.delete(first);
        m.times.delete(first);
        m.fields.set(bucket, s);
      }
      m.fields.set(bucket, { set: vs.set.union(m.fields.get(bucket)!.set), apiVersion: vs.apiVersion, applied: vs.applied });
      m.fields.delete(id);
      m.times.delete(id);
      length--;
      m.times.set(bucket, time);
    } else firstByVersion.set(version, id);
  }
}

/** `[{}]`: the reset request (spec "managedFields entry" rule 8). `[]` is not a reset (see index.ts). */
export function isResetManagedFields(v: unknown): boolean {
  // the one entry decodes to the zero ManagedFieldsEntry (absent, null or empty-string members)
  return Array.isArray(v) && v.length === 1 && isPlain(v[0]) && Object.values(v[0]).every((x) => x === null || x === '' || x === undefined);
}
