// The JSONPath subset used by additionalPrinterColumns and selectableFields (k8s.io/client-go/util/jsonpath,
// as CRDs use it): `.a.b`, `.a[0]`, `.a[*].b`, `.a['x.y']`, and filters `[?(@.type=="Ready")]`.

import { LruCache } from '../cel/lru.js';

type Step = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' } | { kind: 'filter'; path: string[]; op: '==' | '!='; value: unknown };

function parse(path: string): Step[] {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  if (p.startsWith('$')) p = p.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < p.length) {
    if (p[i] === '.') {
      i++;
      let j = i;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      if (j > i) steps.push({ kind: 'field', name: p.slice(i, j) });
      i = j;
    } else if (p[i] === '[') {
      const end = p.indexOf(']', i);
      if (end < 0) throw new Error(`unterminated [ in ${path}`);
      const inner = p.slice(i + 1, end).trim();
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const m = /^\?\(@((?:\.[^=!]+)+)\s*(==|!=)\s*(.+)\)$/.exec(inner);
        if (!m) throw new Error(`unsupported JSONPath element [${inner}]`);
        let v: unknown = m[3].trim();
        const raw = String(v);
        if (/^'.*'$|^".*"$/.test(raw)) v = raw.slice(1, -1);
        else if (raw === 'true' || raw === 'false') v = raw === 'true';
        else if (!Number.isNaN(Number(raw))) v = Number(raw);
        steps.push({ kind: 'filter', path: m[1].split('.').filter(Boolean).map((s) => s.trim()), op: m[2] as '==' | '!=', value: v });
      }
      i = end + 1;
    } else {
      let j = i;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      steps.push({ kind: 'field', name: p.slice(i, j) });
      i = j;
    }
  }
  return steps;
}

/** Parsed paths (bounded: printer columns of many CRDs). */
const cache = new LruCache<string, Step[]>(256);

/** All values the path selects (empty when nothing matches). */
export function evalJsonPath(root: unknown, path: string): unknown[] {
  let steps = cache.get(path);
  if (!steps) cache.set(path, (steps = parse(path)));
  let cur: unknown[] = [root];
  for (const s of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (s.kind === 'field') {
        if (v && typeof v === 'object' && !Array.isArray(v) && s.name in (v as object)) next.push((v as Record<string, unknown>)[s.name]);
      } else if (s.kind === 'index') {
        if (Array.isArray(v)) {
          const i = s.index < 0 ? v.length + s.index : s.index;
          if (i >= 0 && i < v.length) next.push(v[i]);
        }
      } else if (s.kind === 'all') {
        if (Array.isArray(v)) next.push(...v);
        else if (v && typeof v === 'object') next.push(...Object.values(v));
      } else if (Array.isArray(v)) {
        for (const item of v) {
          let x: unknown = item;
          for (const f of s.path) x = x && typeof x === 'object' ? (x as Record<string, unknown>)[f] : undefined;
          if ((x === s.value) === (s.op === '==')) next.push(item);
        }
      }
    }
    cur = next;
  }
  return cur;
}
