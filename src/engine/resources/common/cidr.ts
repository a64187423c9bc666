// IP and CIDR checks of the networking validation (apimachinery util/validation IsValidIP, IsValidCIDR).

import { fieldErr, type FieldError } from '../../errors.js';
import { isIP, isIPv4 } from '../../util/validation.js';

export const VALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
export const VALID_CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** The family of a CIDR string, or undefined when it is not one. */
export function cidrFamily(cidr: string): 4 | 6 | undefined {
  const slash = cidr.indexOf('/');
  if (slash < 0) return undefined;
  const ip = cidr.slice(0, slash);
  const bits = cidr.slice(slash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bits) || !isIP(ip)) return undefined;
  const v4 = isIPv4(ip);
  if (Number(bits) > (v4 ? 32 : 128)) return undefined;
  return v4 ? 4 : 6;
}

export function validCIDR(path: string, cidr: string): FieldError[] {
  return cidrFamily(cidr) ? [] : [fieldErr.invalid(path, cidr, VALID_CIDR)];
}
