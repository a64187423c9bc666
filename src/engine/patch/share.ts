// The private copy a patch works on: a deep copy of the document but for metadata.managedFields, which is
// shared with the document (most of an object's nodes are its fieldsV1 leaves, and a stored object's
// entries are deeply frozen: the managedFields update then decodes them by identity instead of by text).
// No patch writes inside the entries: JSON merge patch replaces a list whole, and a strategic merge patch
// that names managedFields (a directive, an order list) gets a whole copy as before.

import { clone, isPlainObject } from '../object.js';

/** A deep copy of `doc` sharing its metadata.managedFields (a whole copy when `shareable` is false). */
export function copySharingManagedFields(doc: unknown, shareable = true): unknown {
  if (!shareable || !isPlainObject(doc) || !isPlainObject(doc.metadata) || !Array.isArray(doc.metadata.managedFields)) return clone(doc);
  const meta = doc.metadata;
  const entries = meta.managedFields;
  // the same members in the same order, each copied but the entries
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(doc)) {
    const v = doc[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    if (k !== 'metadata') {
      setOwn(out, k, clone(v));
      continue;
    }
    const m: Record<string, unknown> = {};
    for (const mk of Object.keys(meta)) {
      const mv = meta[mk];
      if (mv === undefined || typeof mv === 'function' || typeof mv === 'symbol') continue;
      setOwn(m, mk, mk === 'managedFields' ? entries : clone(mv));
    }
    out.metadata = m;
  }
  return out;
}

/** Whether a patch may leave metadata.managedFields shared: it names no member of it. */
export function patchSparesManagedFields(patch: unknown): boolean {
  if (!isPlainObject(patch) || !isPlainObject(patch.metadata)) return true;
  for (const k of Object.keys(patch.metadata)) if (k.includes('managedFields')) return false;
  return true;
}

function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
