// The Table representation (meta.k8s.io/v1 Table) for get, list and watch: Name plus the kind's columns, or
// the default Name / Created At table; rows carry the object as PartialObjectMetadata (default), the full
// object (includeObject=Object) or nothing (includeObject=None).

import { badRequest } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../registry/types.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  if (v === null || v === '') return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  // optionsForTransform: ValidateTableOptions, reported as a 400
  throw badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(v)}: must be 'Metadata', 'Object', 'None', or empty`);
}

import { humanDuration } from '../util/duration.js';

export { humanDuration };

export function ageOf(obj: KubeObject, now: number): string {
  const ts = obj.metadata?.creationTimestamp;
  if (!ts) return '<unknown>';
  return humanDuration(now - Date.parse(ts));
}

const CREATED_AT_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const NAME_COLUMN = {
  name: 'Name',
  type: 'string',
  format: 'name',
  // ObjectMeta.name's documentation, as the real server's table convertors describe the column
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

export function columnDefinitions(def: ResourceDefinition): Record<string, unknown>[] {
  if (!def.tableColumns?.length) {
    return [
      NAME_COLUMN,
      { name: 'Created At', type: 'date', format: '', description: CREATED_AT_DESCRIPTION, priority: 0 },
    ];
  }
  return [
    NAME_COLUMN,
    ...def.tableColumns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
  ];
}

export function cells(def: ResourceDefinition, obj: KubeObject, now: number): unknown[] {
  const name = obj.metadata?.name ?? '';
  if (!def.tableColumns?.length) return [name, obj.metadata?.creationTimestamp ?? null];
  return [name, ...def.tableColumns.map((c) => normalizeCell(c.cell(obj, { now })))];
}

function normalizeCell(v: unknown): unknown {
  return v === undefined ? null : v;
}

export function partialObjectMetadata(obj: KubeObject, asVersion: string, asGroup: string): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `${asGroup}/${asVersion}`, metadata: obj.metadata };
}

export function tableRow(
  def: ResourceDefinition,
  obj: KubeObject,
  now: number,
  include: IncludeObject,
  asVersion: string,
  asGroup: string,
): Record<string, unknown> {
  const row: Record<string, unknown> = { cells: cells(def, obj, now) };
  if (include === 'Object') row.object = obj;
  else if (include === 'Metadata') row.object = partialObjectMetadata(obj, asVersion, asGroup);
  return row;
}

export function toTable(
  def: ResourceDefinition,
  objects: KubeObject[],
  listMeta: Record<string, unknown>,
  now: number,
  include: IncludeObject,
  asVersion: string,
  asGroup: string,
  withColumns = true,
): Record<string, unknown> {
  return {
    kind: 'Table',
    apiVersion: `${asGroup}/${asVersion}`,
    metadata: listMeta,
    columnDefinitions: withColumns ? columnDefinitions(def) : null,
    rows: objects.map((o) => tableRow(def, o, now, include, asVersion, asGroup)),
  };
}
