// Names of CSI drivers (storage validation's validateCSIDriverName): at most 63 characters, a DNS-1123
// subdomain in lower case, and starting and ending with an alphanumeric character.

import { fieldErr, type FieldError } from '../../errors.js';
import { isDNS1123Subdomain } from '../../util/validation.js';

const CSI_DRIVER_NAME_MAX = 63;

export function csiDriverNameErrors(name: string, path: string): FieldError[] {
  if (name.length === 0) return [fieldErr.required(path, name)];
  const errs: FieldError[] = [];
  if (name.length > CSI_DRIVER_NAME_MAX) errs.push(fieldErr.tooLong(path, name, CSI_DRIVER_NAME_MAX));
  for (const m of isDNS1123Subdomain(name.toLowerCase())) errs.push(fieldErr.invalid(path, name, m));
  return errs;
}
