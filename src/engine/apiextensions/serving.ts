// Serving custom resources: a CustomResourceDefinition becomes, at runtime, the same ResourceDefinition
// shape a built-in kind exports [K8S apiextensions-apiserver customresource strategy], one per served
// version. The registry follows every CRD write within the same request cycle.

import type { KubeObject } from '../object.js';
import { isPlainObject } from '../object.js';
import type { ResourceDefinition, ResourceStrategy, TableColumn } from '../registry/types.js';
import { compareVersions } from '../registry/resources.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import { humanDuration } from '../util/duration.js';
import { evalJsonPath } from './jsonpath.js';
import { customResourceHooks } from './cr-strategy.js';

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: { status?: object; scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string } };
  additionalPrinterColumns?: { name: string; type: string; format?: string; description?: string; priority?: number; jsonPath: string }[];
  selectableFields?: { jsonPath: string }[];
}

export interface CrdSpec {
  group: string;
  names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
  preserveUnknownFields?: boolean;
}

/** A definition produced from a CRD carries `custom: true` and its CRD's name. */
export type CustomResourceDefinitionServing = ResourceDefinition & { custom: true; crdName: string; crdUid: string };

function spec(crd: KubeObject): CrdSpec {
  return crd.spec as CrdSpec;
}

/** The implicit root of every custom resource schema: apiVersion, kind and metadata are always there. */
function rootSchema(s: Schema | undefined): Schema {
  const base: Schema = s ? { ...s } : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  base.type = 'object';
  base.properties = {
    ...(base.properties ?? {}),
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
  };
  return base;
}

function printerColumns(v: CrdVersion): TableColumn[] {
  const cols = v.additionalPrinterColumns;
  if (!cols || cols.length === 0) {
    // no columns declared: Name plus Age
    return [{ name: 'Age', type: 'date', description: 'CreationTimestamp of the object', cell: (o, ctx) => age(o.metadata?.creationTimestamp, ctx.now) }];
  }
  return cols.map((c) => ({
    name: c.name,
    type: c.type as TableColumn['type'],
    format: c.format,
    description: c.description,
    priority: c.priority,
    cell: (o: KubeObject, ctx: { now: number }) => {
      const values = evalJsonPath(o, c.jsonPath);
      if (values.length === 0) return null;
      const v = values[0];
      if (c.type === 'date') return typeof v === 'string' ? age(v, ctx.now) : null;
      if (c.type === 'integer' || c.type === 'number') return typeof v === 'number' ? v : null;
      if (c.type === 'boolean') return typeof v === 'boolean' ? v : null;
      if (typeof v === 'string') return v;
      return JSON.stringify(v);
    },
  }));
}

function age(ts: unknown, now: number): string | null {
  if (typeof ts !== 'string') return null;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? null : humanDuration(now - t);
}

function customStrategy(v: CrdVersion, s: CrdSpec): ResourceStrategy {
  const strategy: ResourceStrategy = {
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    ...customResourceHooks(v.schema?.openAPIV3Schema, { namespaced: s.scope !== 'Cluster', scale: v.subresources?.scale, preserveUnknownFields: s.preserveUnknownFields === true }),
  };
  if (v.selectableFields?.length) {
    const fields = v.selectableFields.map((f) => f.jsonPath);
    strategy.selectableFields = (obj) => {
      const out: Record<string, string> = {};
      for (const p of fields) {
        const vals = evalJsonPath(obj, p);
        out[p.replace(/^\./, '')] = vals.length && vals[0] !== null && vals[0] !== undefined ? String(vals[0]) : '';
      }
      return out;
    };
  }
  return strategy;
}

/** One ResourceDefinition per served version of an established CRD. */
export function definitionsFromCRD(crd: KubeObject, metaDefinitions: SchemaRegistry): CustomResourceDefinitionServing[] {
  const s = spec(crd);
  if (!isPlainObject(s) || !s.names || !Array.isArray(s.versions)) return [];
  const served = s.versions.filter((v) => v.served);
  const sorted = [...served].sort((a, b) => compareVersions(a.name, b.name));
  const storage = s.versions.find((v) => v.storage)?.name;
  return served.map((v) => {
    const def: CustomResourceDefinitionServing = {
      group: s.group,
      version: v.name,
      kind: s.names.kind,
      listKind: s.names.listKind || `${s.names.kind}List`,
      plural: s.names.plural,
      singular: s.names.singular || s.names.kind.toLowerCase(),
      namespaced: s.scope !== 'Cluster',
      verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
      subresources: {},
      schema: rootSchema(v.schema?.openAPIV3Schema),
      definitions: metaDefinitions,
      strategy: customStrategy(v, s),
      tableColumns: printerColumns(v),
      storageVersion: storage,
      preferred: sorted[0]?.name === v.name,
      custom: true,
      crdName: crd.metadata?.name ?? '',
      crdUid: crd.metadata?.uid ?? '',
    };
    if (s.names.shortNames?.length) def.shortNames = [...s.names.shortNames];
    if (s.names.categories?.length) def.categories = [...s.names.categories];
    if (v.subresources?.status) def.subresources.status = true;
    if (v.subresources?.scale) def.subresources.scale = { ...v.subresources.scale };
    if (v.deprecated) {
      def.deprecated = v.deprecationWarning ?? `${s.group}/${v.name} ${s.names.kind} is deprecated`;
    }
    return def;
  });
}

/** Status a CRD gets when the server accepts it: names accepted, established, stored versions. */
export function establishedStatus(crd: KubeObject, nowRfc3339: string, previous?: KubeObject): Record<string, unknown> {
  const s = spec(crd);
  const prevStatus = isPlainObject(previous?.status) ? (previous!.status as Record<string, unknown>) : {};
  const prevConds = Array.isArray(prevStatus.conditions) ? (prevStatus.conditions as Record<string, unknown>[]) : [];
  const since = (type: string) => (prevConds.find((c) => c.type === type && c.status === 'True')?.lastTransitionTime as string) ?? nowRfc3339;
  const accepted: Record<string, unknown> = { plural: s.names.plural, singular: s.names.singular || s.names.kind.toLowerCase(), kind: s.names.kind, listKind: s.names.listKind || `${s.names.kind}List` };
  if (s.names.shortNames?.length) accepted.shortNames = s.names.shortNames;
  if (s.names.categories?.length) accepted.categories = s.names.categories;
  const stored = new Set<string>(Array.isArray(prevStatus.storedVersions) ? (prevStatus.storedVersions as string[]) : []);
  const storage = s.versions.find((v) => v.storage)?.name;
  if (storage) stored.add(storage);
  return {
    conditions: [
      { type: 'NamesAccepted', status: 'True', lastTransitionTime: since('NamesAccepted'), reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', lastTransitionTime: since('Established'), reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ],
    acceptedNames: accepted,
    storedVersions: [...stored],
  };
}
