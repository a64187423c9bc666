// Label and field selectors (k8s.io/apimachinery/pkg/labels, pkg/fields) with the real parse errors.

import { badRequest } from '../errors.js';
import type { KubeObject } from '../object.js';

export type LabelRequirement =
  | { key: string; op: 'exists' | '!' }
  | { key: string; op: '=' | '!='; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'gt' | 'lt'; value: string };

export type LabelSelector = LabelRequirement[];

// ---- the label selector grammar of k8s.io/apimachinery/pkg/labels (lexer + recursive descent) ----

type Tok = 'err' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

const TOKENS: Record<string, Tok> = { ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', in: 'in', '<': '<', '!=': '!=', notin: 'notin', '(': '(' };
const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

function lex(s: string): { tok: Tok; lit: string }[] {
  const out: { tok: Tok; lit: string }[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && WHITESPACE.has(s[i])) i++;
    if (i >= s.length) {
      out.push({ tok: 'end', lit: '' });
      return out;
    }
    if (SPECIAL.has(s[i])) {
      // the longest run of special symbols that is a token
      let buf = '';
      let last: { tok: Tok; lit: string } | undefined;
      while (i < s.length && SPECIAL.has(s[i])) {
        buf += s[i];
        const t = TOKENS[buf];
        if (t) {
          last = { tok: t, lit: buf };
          i++;
        } else if (last) break;
        else i++;
      }
      out.push(last ?? { tok: 'err', lit: `error expected: keyword found '${buf}'` });
      continue;
    }
    let j = i;
    while (j < s.length && !SPECIAL.has(s[j]) && !WHITESPACE.has(s[j])) j++;
    const lit = s.slice(i, j);
    i = j;
    out.push({ tok: TOKENS[lit] === 'in' || TOKENS[lit] === 'notin' ? TOKENS[lit] : 'id', lit });
  }
}

const QUALIFIED_NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QN_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/** validation.IsQualifiedName */
function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
      if (!DNS1123_SUBDOMAIN_RE.test(prefix)) {
        errs.push(
          "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        );
      }
    }
  } else {
    return [`a qualified name ${QN_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME_RE.test(name)) errs.push(`name part ${QN_MSG}`);
  return errs;
}

/** validation.IsValidLabelValue */
function labelValueErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE_RE.test(v)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

/** Go's %#v of a []string, as field.Invalid prints a values set. */
function goStrings(vs: string[]): string {
  return `[]string{${vs.map((v) => JSON.stringify(v)).join(', ')}}`;
}

class SelectorError extends Error {}

/** labels.NewRequirement: its validation errors, aggregated. */
function newRequirement(key: string, op: string, vals: string[]): LabelRequirement {
  const errs: string[] = [];
  const ke = qualifiedNameErrors(key);
  if (ke.length) errs.push(`key: Invalid value: ${JSON.stringify(key)}: ${ke.join('; ')}`);
  if ((op === 'in' || op === 'notin') && vals.length === 0) errs.push(`values: Invalid value: ${goStrings(vals)}: for 'in', 'notin' operators, values set can't be empty`);
  if ((op === 'gt' || op === 'lt') && vals.some((v) => !/^[-+]?\d+$/.test(v))) {
    vals.forEach((v, i) => {
      if (!/^[-+]?\d+$/.test(v)) errs.push(`values[${i}]: Invalid value: ${JSON.stringify(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
    });
  }
  vals.forEach((v, i) => {
    const ve = labelValueErrors(v);
    if (ve.length) errs.push(`values[${i}][${key}]: Invalid value: ${JSON.stringify(v)}: ${ve.join('; ')}`);
  });
  if (errs.length) throw new SelectorError(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  switch (op) {
    case 'exists':
    case '!':
      return { key, op };
    case '=':
    case '==':
      return { key, op: '=', value: vals[0] };
    case '!=':
      return { key, op: '!=', value: vals[0] };
    case 'gt':
    case 'lt':
      return { key, op, value: vals[0] };
    default:
      return { key, op: op as 'in' | 'notin', values: vals };
  }
}

function parseLabels(s: string): LabelSelector {
  const items = lex(s);
  let pos = 0;
  // in the value context "in"/"notin" are identifiers
  const look = (values: boolean) => {
    const t = items[pos];
    return values && (t.tok === 'in' || t.tok === 'notin') ? { tok: 'id' as Tok, lit: t.lit } : t;
  };
  const take = (values: boolean) => {
    const t = look(values);
    pos++;
    return t;
  };
  const fail = (m: string): never => {
    throw new SelectorError(m);
  };
  const parseRequirement = (): LabelRequirement => {
    let t = take(true);
    let op = '';
    if (t.tok === '!') {
      op = '!';
      t = take(true);
    }
    if (t.tok !== 'id') fail(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const ke = qualifiedNameErrors(key);
    if (ke.length) fail(`<nil>: Invalid value: ${JSON.stringify(key)}: ${ke.join('; ')}`);
    // "!key" is complete by itself (what follows must be ',' or the end); "key" alone means exists
    if (op === '!') return newRequirement(key, '!', []);
    const next = look(true).tok;
    if (next === 'end' || next === ',') return newRequirement(key, 'exists', []);
    const o = take(false);
    const ops: Record<string, string> = { in: 'in', notin: 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt' };
    const operator = ops[o.tok];
    if (!operator) fail(`found '${o.lit}', expected: in, notin, =, ==, !=, gt, lt`);
    let values: string[] = [];
    if (operator === 'in' || operator === 'notin') {
      const open = take(true);
      if (open.tok !== '(') fail(`found '${open.lit}' expected: '('`);
      const first = look(true);
      if (first.tok === 'id' || first.tok === ',') {
        const set = new Set<string>();
        for (;;) {
          const v = take(true);
          if (v.tok === 'id') {
            set.add(v.lit);
            const n = look(true);
            if (n.tok === ',') continue;
            if (n.tok === ')') break;
            fail(`found '${n.lit}', expected: ',' or ')'`);
          } else if (v.tok === ',') {
            if (set.size === 0) set.add('');
            const n = look(true);
            if (n.tok === ')') {
              set.add('');
              break;
            }
            if (n.tok === ',') {
              take(true);
              set.add('');
            }
          } else fail(`found '${v.lit}', expected: ',', or identifier`);
        }
        if (take(true).tok !== ')') fail(`found '${first.lit}', expected: ')'`);
        values = [...set].sort();
      } else if (first.tok === ')') {
        take(true);
        values = [''];
      } else fail(`found '${first.lit}', expected: ',', ')' or identifier`);
    } else {
      const n = look(true);
      if (n.tok === 'end' || n.tok === ',') values = [''];
      else {
        const v = take(true);
        if (v.tok !== 'id') fail(`found '${v.lit}', expected: identifier`);
        values = [v.lit];
      }
    }
    return newRequirement(key, operator, values);
  };
  const reqs: LabelSelector = [];
  for (;;) {
    const t = look(true);
    if (t.tok === 'end') break;
    if (t.tok !== 'id' && t.tok !== '!') fail(`found '${t.lit}', expected: !, identifier, or 'end of string'`);
    try {
      reqs.push(parseRequirement());
    } catch (e) {
      if (e instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
    const sep = take(true);
    if (sep.tok === 'end') break;
    if (sep.tok !== ',') fail(`found '${sep.lit}', expected: ',' or 'end of string'`);
    const n = look(true);
    if (n.tok !== 'id' && n.tok !== '!') fail(`found '${n.lit}', expected: identifier after ','`);
  }
  // requirements are kept sorted by key (labels.parse sorts them)
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Parses a label selector (`a=b,c!=d,e in (f,g),!h,i,j>1`); a bad one is the real 400 BadRequest. */
export function parseLabelSelector(s: string | null): LabelSelector {
  if (!s) return [];
  try {
    return parseLabels(s);
  } catch (e) {
    if (e instanceof SelectorError) throw badRequest(e.message);
    throw e;
  }
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
      case 'gt':
      case 'lt': {
        // the label must exist and parse as an integer (Requirement.Matches)
        if (!has || !/^[-+]?\d+$/.test(l[r.key])) return false;
        const a = BigInt(l[r.key]);
        const b = BigInt(r.value);
        if (r.op === 'gt' ? !(a > b) : !(a < b)) return false;
        break;
      }
    }
  }
  return true;
}

export type FieldRequirement = { field: string; op: '=' | '!='; value: string };

/** fields.UnescapeValue: `\\`, `\,` and `\=` are escapes; a bare `,` or `=` in a value is an error. */
function unescapeFieldValue(v: string): string {
  if (!/[\\,=]/.test(v)) return v;
  let out = '';
  let slash = false;
  for (const ch of v) {
    if (slash) {
      if (ch !== '\\' && ch !== ',' && ch !== '=') throw badRequest(`invalid field selector: invalid escape sequence: \\${ch}`);
      out += ch;
      slash = false;
      continue;
    }
    if (ch === '\\') slash = true;
    else if (ch === ',' || ch === '=') throw badRequest(`invalid field selector: unescaped character in value: ${ch.codePointAt(0)}`);
    else out += ch;
  }
  if (slash) throw badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Parses `metadata.name=x,spec.nodeName!=y` as fields.ParseSelector does (terms split on unescaped commas). */
export function parseFieldSelector(s: string | null): FieldRequirement[] {
  if (!s) return [];
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === ',') {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  parts.sort();
  const out: FieldRequirement[] = [];
  for (const p of parts) {
    if (p === '') continue;
    let found: { i: number; op: string } | undefined;
    for (let i = 0; i < p.length && !found; i++) {
      for (const op of ['!=', '==', '=']) {
        if (p.startsWith(op, i)) {
          found = { i, op };
          break;
        }
      }
    }
    if (!found) throw badRequest(`invalid selector: '${s}'; can't understand '${p}'`);
    const value = unescapeFieldValue(p.slice(found.i + found.op.length));
    out.push({ field: p.slice(0, found.i), op: found.op === '!=' ? '!=' : '=', value });
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
