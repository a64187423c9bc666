// intstr.IntOrString checks of the apps validation (ValidatePositiveIntOrPercent, IsNotMoreThan100Percent).

import type { FieldError } from '../../errors.js';
import { IS_NEGATIVE, regexError } from '../../util/validation.js';
import { goIntOrString, invalidRepr } from './go-repr.js';

const PERCENT_FMT = '[0-9]+%';
const PERCENT_RE = new RegExp(`^${PERCENT_FMT}$`);
const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%'";

export function validatePositiveIntOrPercent(v: unknown, path: string): FieldError[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') {
    return PERCENT_RE.test(v) ? [] : [invalidRepr(path, goIntOrString(v), regexError(PERCENT_MSG, PERCENT_FMT, '1%', '93%'))];
  }
  if (typeof v === 'number' && v < 0) return [invalidRepr(path, goIntOrString(v), IS_NEGATIVE)];
  return [];
}

/** The int or percent value (percent strings give their number). */
export function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const m = /^([0-9]+)%$/.exec(v);
    return m ? Number(m[1]) : Number.NaN;
  }
  return 0;
}

export function isNotMoreThan100Percent(v: unknown, path: string): FieldError[] {
  if (typeof v !== 'string' || !/^[0-9]+%$/.test(v)) return [];
  return intOrPercentValue(v) > 100 ? [invalidRepr(path, goIntOrString(v), 'must not be greater than 100%')] : [];
}
