// Objects of a built-in kind generated from its schema (merge tests over the whole catalog): every field in
// turn absent, a zero value ('', 0, false), null, an empty map or list, or a value (lists of one or two items,
// duplicate keys, keyed lists). Deterministic: the same objects every run.

import { builtins } from '../../resources/generated/builtins.js';
import type { JsonObject, JsonValue } from '../../object.js';
import { ext, resolve, type Schema } from '../../schema/types.js';

const defs = builtins.definitions;

/** A small deterministic generator (no Math.random: the same objects every run). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s + Math.imul(s ^ (s >>> 7), 0x297a2d39);
    return ((s ^ (s >>> 14)) >>> 0) / 4294967296;
  };
}

type Mode = 'full' | 'zero' | 'mixed';

function scalar(s: Schema, n: number): JsonValue {
  if (ext(s, 'int-or-string')) return n % 2 ? n : `v${n}`;
  if (s.type === 'integer') return n;
  if (s.type === 'number') return n + 0.5;
  if (s.type === 'boolean') return true;
  return `v${n}`;
}

function zeroOf(s: Schema): JsonValue {
  if (s.type === 'string') return '';
  if (s.type === 'integer' || s.type === 'number') return 0;
  if (s.type === 'boolean') return false;
  if (s.type === 'array') return [];
  if (s.type === 'object') return {};
  return null;
}

/** A value of `schema`, or undefined (absent). */
function gen(schema: Schema | undefined, mode: Mode, r: () => number, depth: number, n: number): JsonValue | undefined {
  const s = resolve(schema, defs);
  if (!s) return 'x';
  // 'zero': every field of a struct present with its zero value ('', 0, false, an empty list or map)
  if (mode === 'zero' && !s.properties) return zeroOf(s);
  if (mode === 'mixed') {
    const x = r();
    if (x < 0.15) return zeroOf(s);
    if (x < 0.25) return null;
    if (x < 0.4) return undefined;
  }
  if (depth > 7) return zeroOf(s);
  if (s.type === 'array') {
    const items = resolve(s.items, defs);
    const count = mode === 'full' ? 2 : Math.floor(r() * 3);
    const out: JsonValue[] = [];
    const keys = ext<string[]>(s, 'list-map-keys') ?? [];
    const dup = mode === 'mixed' && r() < 0.2;
    for (let i = 0; i < count; i++) {
      let v = gen(items, mode, r, depth + 1, dup ? 0 : i);
      if (v === undefined) v = items ? zeroOf(items) : null;
      if (keys.length > 0 && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        for (const k of keys) {
          const ks = resolve(items?.properties?.[k], defs);
          if (!ks || r() < (mode === 'mixed' ? 0.1 : 0)) continue;
          v[k] = scalar(ks, dup ? 0 : i + 1);
        }
      } else if (ext(s, 'list-type') === 'set' && (v === null || typeof v !== 'object')) v = scalar(items ?? {}, dup ? 0 : i + 1);
      out.push(v);
    }
    return out;
  }
  if (s.type === 'object' || s.properties || s.additionalProperties) {
    const out: JsonObject = {};
    if (s.properties) {
      for (const [k, p] of Object.entries(s.properties)) {
        if (k === 'apiVersion' || k === 'kind') continue;
        const v = gen(p, mode, r, depth + 1, n + 1);
        if (v !== undefined) out[k] = v;
      }
    } else if (typeof s.additionalProperties === 'object') {
      const count = mode === 'full' ? 2 : Math.floor(r() * 3);
      for (let i = 0; i < count; i++) {
        const v = gen(s.additionalProperties, mode, r, depth + 1, i);
        if (v !== undefined) out[`k${i}`] = v;
      }
    } else out.raw = { a: n, b: [n] };
    return out;
  }
  return scalar(s, n);
}

export function objects(definition: string, seeds: number): JsonObject[] {
  const schema = { $ref: definition };
  const out: JsonObject[] = [];
  const add = (mode: Mode, seed: number) => {
    const v = gen(schema, mode, rng(seed), 0, seed);
    if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v);
  };
  add('full', 1);
  add('zero', 2);
  for (let i = 0; i < seeds; i++) add('mixed', 100 + i);
  return out;
}

/** Every built-in kind's schema definition, once each, with its kind (tests over the whole catalog). */
export function builtinKinds(): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const r of builtins.resources) if (!kinds.has(r.definition)) kinds.set(r.definition, r.kind);
  return kinds;
}
