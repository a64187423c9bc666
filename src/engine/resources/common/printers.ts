// Helpers for the Table columns of built-in kinds, following the real server's printers
// (pkg/printers/internalversion): the server fills every column, including the priority-1 ("wide") ones.

import type { KubeObject } from '../../object.js';
import { isPlainObject } from '../../object.js';
import type { TableColumn } from '../../registry/types.js';

type Obj = Record<string, unknown>;
export const o = (v: unknown): Obj => (isPlainObject(v) ? (v as Obj) : {});
export const a = (v: unknown): Obj[] => (Array.isArray(v) ? (v as unknown[]).map(o) : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
export const int = (v: unknown): number => (typeof v === 'number' ? Math.trunc(v) : 0);

export { humanDuration } from '../../util/duration.js';
import { humanDuration } from '../../util/duration.js';

/** translateTimestampSince: "<unknown>" for a zero time. */
export function since(ts: unknown, now: number): string {
  if (typeof ts !== 'string' || !ts) return '<unknown>';
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

const AGE_DESCRIPTION = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

export function ageColumn(): TableColumn {
  return { name: 'Age', type: 'string', description: AGE_DESCRIPTION, cell: (obj, ctx) => since(obj.metadata?.creationTimestamp, ctx.now) };
}

export function col(name: string, type: TableColumn['type'], description: string, cell: (obj: KubeObject, ctx: { now: number }) => unknown, priority = 0): TableColumn {
  const c: TableColumn = { name, type, description, cell };
  if (priority) c.priority = priority;
  return c;
}

/** layoutContainerCells: names and images joined with ','. */
export function containerNames(containers: unknown): string {
  return a(containers).map((c) => str(c.name)).join(',');
}
export function containerImages(containers: unknown): string {
  return a(containers).map((c) => str(c.image)).join(',');
}

export function templateContainersColumns(get: (obj: KubeObject) => unknown): TableColumn[] {
  return [
    col('Containers', 'string', 'Names of each container in the template.', (obj) => containerNames(get(obj)), 1),
    col('Images', 'string', 'Images referenced by each container in the template.', (obj) => containerImages(get(obj)), 1),
  ];
}

export const spec = (obj: KubeObject): Obj => o(obj.spec);
export const status = (obj: KubeObject): Obj => o(obj.status);

/**
 * Status fields without omitempty in the Go types always serialize (as 0), e.g. a new ReplicaSet shows
 * `status: {replicas: 0}`; fill them when a status object is present.
 */
export function zeroStatusFields(obj: KubeObject, fields: string[]): void {
  if (!isPlainObject(obj.status)) return;
  const st = obj.status as Obj;
  for (const f of fields) if (st[f] === undefined || st[f] === null) st[f] = 0;
}
