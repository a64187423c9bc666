// Renderings of Go values as the real server's field errors print them (fmt %#v), e.g.
// `map[string]string{"app":"web"}` or `v1.LabelSelector{MatchLabels:..., MatchExpressions:...}`.
// A FieldError's value is then OMIT and the rendering leads the detail, so the message reads exactly
// `<field>: Invalid value: <rendering>: <detail>`.

import { goQuote } from '../../codec/go-format.js';
import { OMIT, type FieldError } from '../../errors.js';
import { isPlainObject } from '../../object.js';

// %#v of a string is strconv.Quote (not JSON's escapes: \x01, not \u0001; U+00AD and U+2028 escaped)
export { goQuote };

export function goStringMap(m: unknown): string {
  if (!isPlainObject(m)) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(String(m[k]))}`).join(', ')}}`;
}

export function goStringSlice(a: unknown): string {
  if (!Array.isArray(a)) return '[]string(nil)';
  return `[]string{${a.map((x) => goQuote(String(x))).join(', ')}}`;
}

export function goLabelSelector(sel: unknown): string {
  const s = isPlainObject(sel) ? sel : {};
  const exprs = Array.isArray(s.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${(s.matchExpressions as Record<string, unknown>[])
        .map((r) => `v1.LabelSelectorRequirement{Key:${goQuote(String(r?.key ?? ''))}, Operator:${goQuote(String(r?.operator ?? ''))}, Values:${goStringSlice(r?.values)}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${exprs}}`;
}

/** intstr.IntOrString as %#v prints it. */
export function goIntOrString(v: unknown): string {
  if (typeof v === 'number') return `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`;
  return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(String(v ?? ''))}}`;
}

/** field.Invalid with a Go-rendered value. */
export function invalidRepr(field: string, repr: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value: OMIT, detail: detail ? `${repr}: ${detail}` : repr };
}
