// fieldsV1 decoding for the managed-fields viewer (docs/design.md 7): each key of a fieldsV1 node is a path
// element, `f:<name>` a field, `k:<json>` a list item identified by its key fields, `v:<json>` a set item by
// its value, `i:<n>` an item by index, and `.` the node itself. A member owned with no children is `{}`.
// Here we resolve those elements against a concrete object so each YAML line can show its owners. Pure.
import type { Seg, YamlLine } from '../common/yaml-lines.js';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  subresource?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
}

export type PathElement =
  | { kind: 'field'; name: string }
  | { kind: 'key'; fields: Record<string, unknown> }
  | { kind: 'value'; value: unknown }
  | { kind: 'index'; index: number };

/** Parses one fieldsV1 key (not `.`); undefined for a malformed one. */
export function parseElement(key: string): PathElement | undefined {
  const colon = key.indexOf(':');
  if (colon !== 1) return undefined;
  const body = key.slice(2);
  try {
    switch (key[0]) {
      case 'f':
        return { kind: 'field', name: body };
      case 'k': {
        const fields = JSON.parse(body) as unknown;
        if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
        return { kind: 'key', fields: fields as Record<string, unknown> };
      }
      case 'v':
        return { kind: 'value', value: JSON.parse(body) as unknown };
      case 'i': {
        if (!/^(0|[1-9][0-9]*)$/.test(body)) return undefined;
        return { kind: 'index', index: Number(body) };
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** How the real server prints a path in conflict messages: `.spec.containers[name="app"].image`. */
export function formatPath(elements: PathElement[]): string {
  let s = '';
  for (const e of elements) {
    switch (e.kind) {
      case 'field':
        s += `.${e.name}`;
        break;
      case 'key':
        s += `[${Object.entries(e.fields)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
        break;
      case 'value':
        s += `[=${JSON.stringify(e.value)}]`;
        break;
      case 'index':
        s += `[${e.index}]`;
        break;
    }
  }
  return s;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && deepEqual(ao[k], bo[k]));
}

/** The index in `list` the element designates, or -1. */
function resolveIndex(list: unknown, e: PathElement): number {
  if (!Array.isArray(list)) return -1;
  switch (e.kind) {
    case 'index':
      return e.index < list.length ? e.index : -1;
    case 'value':
      return list.findIndex((x) => deepEqual(x, e.value));
    case 'key':
      return list.findIndex(
        (x) =>
          typeof x === 'object' &&
          x !== null &&
          Object.entries(e.fields).every(([k, v]) => deepEqual((x as Record<string, unknown>)[k], v)),
      );
    default:
      return -1;
  }
}

export interface OwnedPath {
  /** The field path as the server prints it. */
  display: string;
  /** Concrete path into the object; undefined when the object has no such field (e.g. an older version). */
  path?: Seg[];
  /** `{}` in fieldsV1: the whole subtree (a leaf, an atomic list/map) is owned. */
  leaf: boolean;
}

/** Every node a fieldsV1 tree marks as owned (`{}` leaves and nodes with `.`), resolved against `obj`. */
export function ownedPaths(fieldsV1: unknown, obj: unknown): OwnedPath[] {
  const out: OwnedPath[] = [];
  const walk = (node: unknown, elements: PathElement[], path: Seg[] | undefined, value: unknown) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      if (key === '.') {
        out.push({ display: formatPath(elements), path, leaf: false });
        continue;
      }
      const e = parseElement(key);
      if (!e) continue;
      let childPath: Seg[] | undefined;
      let childValue: unknown;
      if (path) {
        if (e.kind === 'field') {
          if (typeof value === 'object' && value !== null && !Array.isArray(value) && e.name in (value as object)) {
            childPath = [...path, e.name];
            childValue = (value as Record<string, unknown>)[e.name];
          }
        } else {
          const i = resolveIndex(value, e);
          if (i >= 0) {
            childPath = [...path, i];
            childValue = (value as unknown[])[i];
          }
        }
      }
      const els = [...elements, e];
      const isLeaf = typeof child === 'object' && child !== null && Object.keys(child).length === 0;
      if (isLeaf) out.push({ display: formatPath(els), path: childPath, leaf: true });
      else walk(child, els, childPath, childValue);
    }
  };
  walk(fieldsV1, [], [], obj);
  return out;
}

function key(path: Seg[]): string {
  return JSON.stringify(path);
}

/**
 * For each YAML line, the indexes of the managers that own what it shows: the line's field (or list item)
 * is owned exactly, or sits under a `{}` leaf (an atomic value owned as a whole).
 */
export function lineOwners(lines: YamlLine[], entries: ManagedFieldsEntry[], obj: unknown): number[][] {
  const exact = new Map<string, Set<number>>();
  const leaves = new Map<string, Set<number>>();
  entries.forEach((entry, i) => {
    for (const p of ownedPaths(entry.fieldsV1, obj)) {
      if (!p.path) continue;
      const k = key(p.path);
      (exact.get(k) ?? exact.set(k, new Set()).get(k)!).add(i);
      if (p.leaf) (leaves.get(k) ?? leaves.set(k, new Set()).get(k)!).add(i);
    }
  });
  const ownersOf = (path: Seg[], acc: Set<number>) => {
    for (const i of exact.get(key(path)) ?? []) acc.add(i);
    for (let n = path.length - 1; n >= 0; n--) for (const i of leaves.get(key(path.slice(0, n))) ?? []) acc.add(i);
  };
  return lines.map((line) => {
    const acc = new Set<number>();
    ownersOf(line.path, acc);
    if (line.itemPath) ownersOf(line.itemPath, acc);
    return [...acc].sort((a, b) => a - b);
  });
}

/** Fields the object no longer has but a manager still lists (e.g. read from an older version). */
export function unresolvedPaths(entry: ManagedFieldsEntry, obj: unknown): string[] {
  return ownedPaths(entry.fieldsV1, obj)
    .filter((p) => !p.path)
    .map((p) => p.display);
}

/** Fields tracked in the entry, as printed paths (for the entry's tree and the history view). */
export function entryPaths(entry: ManagedFieldsEntry): string[] {
  return ownedPaths(entry.fieldsV1, undefined).map((p) => p.display);
}

/** The object without metadata.managedFields (what the blame view shows). */
export function withoutManagedFields<T>(obj: T): T {
  if (typeof obj !== 'object' || obj === null) return obj;
  const o = obj as Record<string, unknown>;
  const meta = o.metadata;
  if (typeof meta !== 'object' || meta === null || !('managedFields' in meta)) return obj;
  const { managedFields: _drop, ...rest } = meta as Record<string, unknown>;
  return { ...o, metadata: rest } as T;
}

/** A stable label for an entry: `manager (Apply)`, `kubectl (Update, status)`. */
export function entryLabel(e: ManagedFieldsEntry): string {
  const op = [e.operation ?? '?', e.subresource].filter(Boolean).join(', ');
  return `${e.manager ?? '(no manager)'} (${op})`;
}

/** Colours for managers, readable on light and dark backgrounds. */
/** Chip backgrounds, each dark enough for white text at 4.5:1 or more (WCAG AA). */
export const MANAGER_COLOURS = ['#1f5f99', '#b3261e', '#1e7b34', '#6a4c9c', '#a34c00', '#0b6e7a', '#a3367f', '#8c564b', '#5f6368', '#666600'];

/** A colour per manager name, the same across versions and reloads. */
export function managerColour(name: string): string {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return MANAGER_COLOURS[h % MANAGER_COLOURS.length];
}
