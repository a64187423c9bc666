// Label and field selectors (k8s.io/apimachinery/pkg/labels, pkg/fields) with the real parse errors.

import { badRequest } from '../errors.js';
import type { KubeObject } from '../object.js';

export type LabelRequirement =
  | { key: string; op: 'exists' | '!' }
  | { key: string; op: '=' | '!='; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] };

export type LabelSelector = LabelRequirement[];

const KEY_RE = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function tokenize(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === ' ' || c === '\t') { i++; continue; }
    if (c === ',' || c === '(' || c === ')') { out.push(c); i++; continue; }
    if (c === '!' && s[i + 1] === '=') { out.push('!='); i += 2; continue; }
    if (c === '=' && s[i + 1] === '=') { out.push('=='); i += 2; continue; }
    if (c === '=' || c === '!') { out.push(c); i++; continue; }
    let j = i;
    while (j < s.length && !' \t,()!='.includes(s[j])) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

function checkKey(key: string): void {
  if (!key || key.length > 317 || !KEY_RE.test(key)) {
    throw badRequest(`unable to parse requirement: <nil>: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`);
  }
}

function checkValue(v: string): void {
  if (v.length > 63 || !VALUE_RE.test(v)) {
    throw badRequest(`unable to parse requirement: values[0][${''}]: Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`);
  }
}

/** Parses `a=b,c!=d,e in (f,g),!h,i`. */
export function parseLabelSelector(s: string | null): LabelSelector {
  if (!s || !s.trim()) return [];
  const t = tokenize(s);
  const reqs: LabelSelector = [];
  let i = 0;
  const fail = (msg: string): never => {
    throw badRequest(`unable to parse requirement: ${msg}`);
  };
  while (i < t.length) {
    if (t[i] === '!') {
      const key = t[i + 1];
      if (key === undefined || [',', '(', ')'].includes(key)) fail(`found '${key ?? ''}', expected: identifier`);
      checkKey(key);
      reqs.push({ key, op: '!' });
      i += 2;
    } else {
      const key = t[i];
      if ([',', '(', ')', '=', '==', '!='].includes(key)) throw badRequest(`found '${key}', expected: !, identifier, or 'end of string'`);
      checkKey(key);
      const op = t[i + 1];
      if (op === undefined || op === ',') {
        reqs.push({ key, op: 'exists' });
        i += 1;
      } else if (op === '=' || op === '==' || op === '!=') {
        const v = t[i + 2];
        const value = v === undefined || v === ',' ? '' : v;
        checkValue(value);
        reqs.push({ key, op: op === '!=' ? '!=' : '=', value });
        i += v === undefined || v === ',' ? 2 : 3;
      } else if (op === 'in' || op === 'notin') {
        if (t[i + 2] !== '(') fail(`found '${t[i + 2] ?? ''}', expected: '('`);
        const values: string[] = [];
        let j = i + 3;
        while (j < t.length && t[j] !== ')') {
          if (t[j] !== ',') {
            checkValue(t[j]);
            values.push(t[j]);
          }
          j++;
        }
        if (t[j] !== ')') fail(`found '', expected: ')'`);
        if (values.length === 0) fail(`for 'in', 'notin' operators, values set can't be empty`);
        reqs.push({ key, op, values });
        i = j + 1;
      } else {
        throw badRequest(`found '${op}', expected: in, notin, =, ==, !=, gt, lt`);
      }
    }
    if (i < t.length) {
      if (t[i] !== ',') throw badRequest(`found '${t[i]}', expected: ',' or 'end of string'`);
      i++;
    }
  }
  return reqs;
}

export function matchesLabels(sel: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  for (const r of sel) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case 'exists':
        if (!has) return false;
        break;
      case '!':
        if (has) return false;
        break;
      case '=':
        if (!has || l[r.key] !== r.value) return false;
        break;
      case '!=':
        if (has && l[r.key] === r.value) return false;
        break;
      case 'in':
        if (!has || !r.values.includes(l[r.key])) return false;
        break;
      case 'notin':
        if (has && r.values.includes(l[r.key])) return false;
        break;
    }
  }
  return true;
}

export type FieldRequirement = { field: string; op: '=' | '!='; value: string };

/** Parses `metadata.name=x,spec.nodeName!=y` (fields.ParseSelector, with its escaping of `\,` `\=` `\\`). */
export function parseFieldSelector(s: string | null): FieldRequirement[] {
  if (!s || !s.trim()) return [];
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && i + 1 < s.length) {
      cur += s[i] + s[i + 1];
      i++;
    } else if (s[i] === ',') {
      parts.push(cur);
      cur = '';
    } else cur += s[i];
  }
  parts.push(cur);
  const unescape = (v: string) => v.replace(/\\(.)/g, '$1');
  const out: FieldRequirement[] = [];
  for (const p of parts) {
    let j = 0;
    let op = '';
    for (; j < p.length; j++) {
      if (p[j] === '\\') { j++; continue; }
      if (p.startsWith('!=', j)) { op = '!='; break; }
      if (p.startsWith('==', j)) { op = '=='; break; }
      if (p[j] === '=') { op = '='; break; }
    }
    if (!op) throw badRequest(`invalid selector: '${s}'; can't understand '${p}'`);
    out.push({ field: unescape(p.slice(0, j).trim()), op: op === '!=' ? '!=' : '=', value: unescape(p.slice(j + op.length)) });
  }
  return out;
}

export function matchesFields(sel: FieldRequirement[], fields: Record<string, string>): boolean {
  for (const r of sel) {
    const v = fields[r.field] ?? '';
    if (r.op === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}

/** metadata.name and metadata.namespace for every kind, plus the kind's own selectable fields. */
export function objectFields(obj: KubeObject, namespaced: boolean, extra?: (o: KubeObject) => Record<string, string>): Record<string, string> {
  const f: Record<string, string> = { 'metadata.name': obj.metadata?.name ?? '' };
  if (namespaced) f['metadata.namespace'] = obj.metadata?.namespace ?? '';
  return extra ? { ...extra(obj), ...f } : f;
}
