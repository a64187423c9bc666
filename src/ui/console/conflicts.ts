// Apply conflicts (409 with FieldManagerConflict causes) and the two resolutions that edit the manifest
// (spec "Update and patch rules" 4): drop the conflicting fields from my manifest, or adopt the server's
// values (and so share ownership). Field paths are structured-merge-diff's string form:
//   .spec.replicas   .spec.containers[name="app"].image   .spec.ports[containerPort=80,protocol="TCP"].name
//   .spec.nums[=1] (a set member)   .spec.args[0] (a list index)
// Field names may contain dots (label keys), so a path is walked against the object it addresses. Pure.

export interface FieldConflict {
  /** the cause's field, e.g. `.spec.replicas` */
  field: string;
  /** the manager that owns it, e.g. `kubectl` */
  manager: string;
  /** `using apps/v1`, when the owner applied another version */
  using?: string;
  message: string;
}

/** The conflicts of an apply failure (a 409 Status with FieldManagerConflict causes), or undefined. */
export function parseConflicts(status: unknown): FieldConflict[] | undefined {
  const s = status as { kind?: unknown; code?: unknown; details?: { causes?: unknown } } | null;
  if (!s || s.kind !== 'Status' || s.code !== 409) return undefined;
  const causes = s.details?.causes;
  if (!Array.isArray(causes)) return undefined;
  const out: FieldConflict[] = [];
  for (const c of causes as { reason?: unknown; message?: unknown; field?: unknown }[]) {
    if (c.reason !== 'FieldManagerConflict' || typeof c.field !== 'string') continue;
    const message = typeof c.message === 'string' ? c.message : '';
    const m = /^conflict with "((?:[^"\\]|\\.)*)"(?: using (\S+))?/.exec(message);
    out.push({ field: c.field, manager: m ? m[1].replace(/\\(.)/g, '$1') : message, using: m?.[2], message });
  }
  return out.length ? out : undefined;
}

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'key'; keys: Record<string, unknown> }
  | { kind: 'value'; value: unknown }
  | { kind: 'index'; index: number };

/** Parses one bracket selector `[...]` at `s[i]`; returns the step and the index after `]`. */
function parseBracket(s: string, i: number): { step: Step; end: number } {
  let j = i + 1;
  let depth = 0;
  let inString = false;
  for (; j < s.length; j++) {
    const ch = s[j];
    if (inString) {
      if (ch === '\\') j++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') {
      if (depth === 0) break;
      depth--;
    }
  }
  const inner = s.slice(i + 1, j);
  if (/^\d+$/.test(inner)) return { step: { kind: 'index', index: Number(inner) }, end: j + 1 };
  if (inner.startsWith('=')) return { step: { kind: 'value', value: JSON.parse(inner.slice(1)) }, end: j + 1 };
  // key=value pairs; values are JSON
  const keys: Record<string, unknown> = {};
  const obj = JSON.parse(`{${inner.replace(/(^|,)([^=,"]+)=/g, (_m, sep: string, k: string) => `${sep}${JSON.stringify(k)}:`)}}`) as Record<string, unknown>;
  Object.assign(keys, obj);
  return { step: { kind: 'key', keys }, end: j + 1 };
}

function matches(item: unknown, step: Step): boolean {
  if (step.kind === 'value') return JSON.stringify(item) === JSON.stringify(step.value);
  if (step.kind !== 'key' || !item || typeof item !== 'object') return false;
  return Object.entries(step.keys).every(([k, v]) => JSON.stringify((item as Record<string, unknown>)[k]) === JSON.stringify(v));
}

export interface Located {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
}

/**
 * Finds the slot `path` names in `obj` (its parent container and key), or undefined when `obj` does not
 * have it. With `create`, missing maps on the way are created (for adopting a value).
 */
export function locate(obj: unknown, path: string, create = false): Located | undefined {
  let cur: unknown = obj;
  let i = 0;
  let located: Located | undefined;
  while (i < path.length) {
    if (located) {
      const next = (located.parent as Record<string | number, unknown>)[located.key];
      if (next === undefined && create && path[i] === '.') {
        (located.parent as Record<string | number, unknown>)[located.key] = {};
      }
      cur = (located.parent as Record<string | number, unknown>)[located.key];
    }
    if (path[i] === '.') {
      if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
      const map = cur as Record<string, unknown>;
      const rest = path.slice(i + 1);
      // the longest existing key the rest starts with, followed by the end, '.' or '['
      let best: string | undefined;
      for (const k of Object.keys(map)) {
        if (rest.startsWith(k) && (rest.length === k.length || rest[k.length] === '.' || rest[k.length] === '[')) {
          if (best === undefined || k.length > best.length) best = k;
        }
      }
      if (best === undefined) {
        if (!create) return undefined;
        const m = /^[^.[]*/.exec(rest);
        best = m ? m[0] : rest;
      }
      located = { parent: map, key: best };
      i += 1 + best.length;
    } else if (path[i] === '[') {
      if (!Array.isArray(cur)) return undefined;
      const { step, end } = parseBracket(path, i);
      const idx = step.kind === 'index' ? step.index : cur.findIndex((item) => matches(item, step));
      if (idx < 0 || idx >= cur.length) return undefined;
      located = { parent: cur, key: idx };
      i = end;
    } else return undefined;
  }
  return located;
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Removes the conflicting fields from a manifest (maps left empty by it are removed too). */
export function dropFields(manifest: unknown, fields: string[]): unknown {
  const out = clone(manifest);
  for (const field of fields) {
    const at = locate(out, field);
    if (!at) continue;
    if (Array.isArray(at.parent)) at.parent.splice(at.key as number, 1);
    else delete at.parent[at.key as string];
    pruneEmpty(out, field);
  }
  return out;
}

/** Removes maps emptied by a drop, walking up the path (never the root, never `metadata`'s name). */
function pruneEmpty(root: unknown, field: string): void {
  let path = field;
  for (;;) {
    const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    if (cut <= 0) return;
    path = path.slice(0, cut);
    const at = locate(root, path);
    if (!at) return;
    const v = (at.parent as Record<string | number, unknown>)[at.key];
    const empty = v && typeof v === 'object' && (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0);
    if (!empty) return;
    if (Array.isArray(at.parent)) at.parent.splice(at.key as number, 1);
    else delete at.parent[at.key as string];
  }
}

/**
 * Sets each conflicting field of the manifest to the live object's value (the manager then shares
 * ownership on the next apply). Fields the live object lacks are left as they are.
 */
export function adoptFields(manifest: unknown, live: unknown, fields: string[]): unknown {
  const out = clone(manifest);
  for (const field of fields) {
    const src = locate(live, field);
    if (!src) continue;
    const value = clone((src.parent as Record<string | number, unknown>)[src.key]);
    const dst = locate(out, field, true);
    if (!dst) continue;
    (dst.parent as Record<string | number, unknown>)[dst.key] = value;
  }
  return out;
}

/** The request path without its query (the object's URL), and the same with `force=true` added. */
export function withForce(path: string): string {
  const [p, q = ''] = path.split('?', 2);
  const params = new URLSearchParams(q);
  params.set('force', 'true');
  return `${p}?${params.toString()}`;
}

export function withoutQuery(path: string): string {
  return path.split('?', 1)[0];
}

const pathOnly = (p: string) => p.split('?')[0];

/**
 * The request that resolved a 409 apply conflict: a later PATCH of the same object that succeeded (Force,
 * Drop or Adopt from the console, or another apply), else undefined.
 */
export function conflictResolution<R extends { id: number; method: string; path: string; status?: number }>(
  conflict: { id: number; path: string },
  requests: readonly R[],
): R | undefined {
  const path = pathOnly(conflict.path);
  return requests.find((r) => r.id > conflict.id && r.method === 'PATCH' && pathOnly(r.path) === path && r.status !== undefined && r.status >= 200 && r.status < 300);
}
