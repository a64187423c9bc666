// Label selectors: matching, the metav1 selector validation, and the string form kubectl prints
// (labels.Selector.String(): requirements sorted by key, "k=v", "k in (a,b)", "!k").

import { fieldErr, type FieldError } from '../../errors.js';
import { isPlainObject } from '../../object.js';
import { isQualifiedName, validateLabels } from '../../util/validation.js';

interface Requirement { key: string; op: string; values: string[] }

function requirements(sel: unknown): Requirement[] | null {
  if (!isPlainObject(sel)) return null;
  const reqs: Requirement[] = [];
  if (isPlainObject(sel.matchLabels)) {
    for (const [k, v] of Object.entries(sel.matchLabels)) reqs.push({ key: k, op: '=', values: [String(v)] });
  }
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions as Record<string, unknown>[]) {
      reqs.push({ key: String(e?.key ?? ''), op: String(e?.operator ?? ''), values: Array.isArray(e?.values) ? (e.values as unknown[]).map(String) : [] });
    }
  }
  return reqs;
}

/** metav1.LabelSelectorAsSelector + Matches. A nil selector matches nothing; an empty one matches everything. */
export function selectorMatches(sel: unknown, labels: unknown): boolean {
  const reqs = requirements(sel);
  if (reqs === null) return false;
  const l = isPlainObject(labels) ? (labels as Record<string, unknown>) : {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = has ? String(l[r.key]) : undefined;
    switch (r.op) {
      case '=':
      case 'In':
        return has && r.values.includes(v!);
      case 'NotIn':
        return !has || !r.values.includes(v!);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
      default:
        return false;
    }
  });
}

/** A map selector (ReplicationController, Service): every pair must match. */
export function mapSelectorMatches(sel: unknown, labels: unknown): boolean {
  if (!isPlainObject(sel)) return false;
  const l = isPlainObject(labels) ? labels : {};
  return Object.entries(sel).every(([k, v]) => l[k] === v);
}

export function isEmptySelector(sel: unknown): boolean {
  const reqs = requirements(sel);
  return reqs !== null && reqs.length === 0;
}

/** metav1.FormatLabelSelector. */
export function formatLabelSelector(sel: unknown): string {
  const reqs = requirements(sel);
  if (reqs === null) return '<none>';
  const parts = reqs
    .slice()
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => {
      const vals = [...r.values].sort().join(',');
      switch (r.op) {
        case '=': return `${r.key}=${r.values[0]}`;
        case 'In': return `${r.key} in (${vals})`;
        case 'NotIn': return `${r.key} notin (${vals})`;
        case 'Exists': return r.key;
        case 'DoesNotExist': return `!${r.key}`;
        default: return '<error>';
      }
    });
  if (parts.includes('<error>')) return '<error>';
  const s = parts.join(',');
  return s || '<none>';
}

/** labels.Set(m).String() / FormatLabels: "a=b,c=d" sorted, "<none>" when empty. */
export function formatLabels(m: unknown): string {
  if (!isPlainObject(m) || Object.keys(m).length === 0) return '<none>';
  return Object.keys(m).sort().map((k) => `${k}=${String(m[k])}`).join(',');
}

/** metav1validation.ValidateLabelSelector. */
export function validateLabelSelector(sel: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!isPlainObject(sel)) return errs;
  if (Array.isArray(sel.matchExpressions)) {
    (sel.matchExpressions as Record<string, unknown>[]).forEach((e, i) => {
      const p = `${path}.matchExpressions[${i}]`;
      const values = Array.isArray(e?.values) ? e.values : [];
      switch (e?.operator) {
        case 'In':
        case 'NotIn':
          if (values.length === 0) errs.push(fieldErr.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
          break;
        case 'Exists':
        case 'DoesNotExist':
          if (values.length > 0) errs.push(fieldErr.forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
          break;
        default:
          errs.push(fieldErr.invalid(`${p}.operator`, e?.operator ?? '', 'not a valid selector operator'));
      }
      for (const m of isQualifiedName(String(e?.key ?? ''))) errs.push(fieldErr.invalid(`${p}.key`, String(e?.key ?? ''), m));
    });
  }
  errs.push(...validateLabels(sel.matchLabels, `${path}.matchLabels`));
  return errs;
}
