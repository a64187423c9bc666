// ConfigMaps (core v1): ValidateConfigMap/Update (keys, total size, immutable), the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { byteLength, isConfigMapKey } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { ageColumn, col, o } from '../common/printers.js';

export const MAX_DATA_SIZE = 1024 * 1024;

/** Keys of data/binaryData; `sizeOf` gives each value's stored size in bytes. */
export function validateDataBags(obj: KubeObject, binaryField: 'binaryData' | null, sizeOf: (field: string, v: unknown) => number): FieldError[] {
  const errs: FieldError[] = [];
  const data = o(obj.data);
  const binary = binaryField ? o(obj[binaryField]) : {};
  let total = 0;
  for (const [k, v] of Object.entries(data)) {
    for (const m of isConfigMapKey(k)) errs.push(fieldErr.invalid(`data[${k}]`, k, m));
    if (binaryField && k in binary) errs.push(fieldErr.invalid(`data[${k}]`, k, 'duplicate of key present in binaryData'));
    total += sizeOf('data', v);
  }
  if (binaryField) {
    for (const [k, v] of Object.entries(binary)) {
      for (const m of isConfigMapKey(k)) errs.push(fieldErr.invalid(`${binaryField}[${k}]`, k, m));
      if (k in data) errs.push(fieldErr.invalid(`${binaryField}[${k}]`, k, 'duplicate of key present in data'));
      total += sizeOf(binaryField, v);
    }
  }
  if (total > MAX_DATA_SIZE) errs.push(fieldErr.tooLong('', '', MAX_DATA_SIZE));
  return errs;
}

export function validateImmutableData(obj: KubeObject, old: KubeObject, fields: string[]): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable !== true) return errs;
  if (obj.immutable !== true) errs.push(fieldErr.forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) {
    const n = obj[f] && Object.keys(o(obj[f])).length ? obj[f] : null;
    const p = old[f] && Object.keys(o(old[f])).length ? old[f] : null;
    if (!jsonEqual(n, p)) errs.push(fieldErr.forbidden(f, 'field is immutable when `immutable` is set'));
  }
  return errs;
}

export const configmaps = builtin('', 'v1', 'configmaps', {
  // no defaulting or preparation writes into a ConfigMap: its updates share the stored data
  copyOnWrite: true,
  validateObject: (obj) => validateDataBags(obj, 'binaryData', (f, v) => (f === 'data' ? byteLength(String(v ?? '')) : Math.floor((String(v ?? '').length * 3) / 4))),
  validateChange: (obj, old) => validateImmutableData(obj, old, ['data', 'binaryData']),
  tableColumns: [
    col('Data', 'string', 'Data contains the configuration data. Each key must consist of alphanumeric characters, \'-\', \'_\' or \'.\'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.', (obj) => Object.keys(o(obj.data)).length + Object.keys(o(obj.binaryData)).length),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
