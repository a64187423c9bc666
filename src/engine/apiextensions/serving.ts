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
import { crdConversion, type ObjectLookup } from './conversion.js';

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
export function definitionsFromCRD(crd: KubeObject, metaDefinitions: SchemaRegistry, lookup?: ObjectLookup): CustomResourceDefinitionServing[] {
  const s = spec(crd);
  if (!isPlainObject(s) || !s.names || !Array.isArray(s.versions)) return [];
  // served under the accepted names (they differ from spec.names while a new name conflicts)
  const an = (crd.status as { acceptedNames?: CrdSpec['names'] } | undefined)?.acceptedNames;
  const names = an && an.plural && an.kind ? an : s.names;
  const served = s.versions.filter((v) => v.served);
  const sorted = [...served].sort((a, b) => compareVersions(a.name, b.name));
  const storage = s.versions.find((v) => v.storage)?.name;
  // every served version reads and writes the same stored objects
  const conversion = crdConversion(crd, names.kind, lookup);
  return served.map((v) => {
    const def: CustomResourceDefinitionServing = {
      group: s.group,
      version: v.name,
      kind: names.kind,
      listKind: names.listKind || `${names.kind}List`,
      plural: names.plural,
      singular: names.singular || names.kind.toLowerCase(),
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
      // the custom resource status strategy copies the stored object and takes only status (and managedFields)
      statusPinnedMetadata: 'all',
      crdName: crd.metadata?.name ?? '',
      crdUid: crd.metadata?.uid ?? '',
      conversion,
    };
    if (names.shortNames?.length) def.shortNames = [...names.shortNames];
    if (names.categories?.length) def.categories = [...names.categories];
    if (v.subresources?.status) def.subresources.status = true;
    if (v.subresources?.scale) def.subresources.scale = { ...v.subresources.scale };
    if (v.deprecated) def.deprecated = v.deprecationWarning ?? defaultDeprecationWarning(v.name, s);
    return def;
  });
}

/**
 * The warning of a deprecated version without its own deprecationWarning (apiextensions crdHandler):
 * `<group>/<version> <Kind> is deprecated`, followed by `; use <group>/<newer> <Kind>` naming the most
 * stable served, non-deprecated version that sorts above the deprecated one, when there is one.
 */
export function defaultDeprecationWarning(version: string, s: CrdSpec): string {
  const msg = `${s.group}/${version} ${s.names.kind} is deprecated`;
  const newer = s.versions
    .filter((v) => v.served && !v.deprecated && compareVersions(v.name, version) < 0)
    .map((v) => v.name)
    .sort(compareVersions);
  return newer.length ? `${msg}; use ${s.group}/${newer[0]} ${s.names.kind}` : msg;
}

/** Accepted names of the other CRDs of a group (the naming controller's view). */
export interface GroupNames {
  resources: Set<string>;
  kinds: Set<string>;
}

export function acceptedNamesOfGroup(group: string, crds: KubeObject[], exceptName: string): GroupNames {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const c of crds) {
    if (c.metadata?.name === exceptName) continue;
    const sp = c.spec as CrdSpec | undefined;
    if (!sp || sp.group !== group) continue;
    const an = ((c.status as Record<string, unknown> | undefined)?.acceptedNames ?? {}) as Record<string, unknown>;
    for (const k of ['plural', 'singular']) if (typeof an[k] === 'string') resources.add(an[k] as string);
    for (const n of (an.shortNames as string[] | undefined) ?? []) resources.add(n);
    for (const k of ['kind', 'listKind']) if (typeof an[k] === 'string') kinds.add(an[k] as string);
  }
  return { resources, kinds };
}

/**
 * Status a CRD gets from the naming and establishing controllers: accepted names (a name already accepted
 * by another CRD of the group is refused: NamesAccepted False), Established, stored versions.
 */
export function establishedStatus(crd: KubeObject, nowRfc3339: string, previous?: KubeObject, others?: GroupNames): Record<string, unknown> {
  const s = spec(crd);
  const prevStatus = isPlainObject(previous?.status) ? (previous!.status as Record<string, unknown>) : {};
  const prevConds = Array.isArray(prevStatus.conditions) ? (prevStatus.conditions as Record<string, unknown>[]) : [];
  const prevAccepted = (isPlainObject(prevStatus.acceptedNames) ? prevStatus.acceptedNames : {}) as Record<string, unknown>;
  const since = (type: string, status: string) => {
    const c = prevConds.find((x) => x.type === type);
    return c && c.status === status ? (c.lastTransitionTime as string) : nowRfc3339;
  };
  const used = others ?? { resources: new Set<string>(), kinds: new Set<string>() };
  const requested: Record<string, unknown> = {
    plural: s.names.plural, singular: s.names.singular || s.names.kind.toLowerCase(), kind: s.names.kind, listKind: s.names.listKind || `${s.names.kind}List`,
  };
  const accepted: Record<string, unknown> = {};
  let conflict: { reason: string; message: string } | undefined;
  const check = (field: string, pool: Set<string>, reason: string) => {
    const want = requested[field] as string;
    const had = (prevAccepted[field] as string | undefined) ?? '';
    if (want !== had && pool.has(want)) {
      conflict = { reason, message: `${JSON.stringify(want)} is already in use` };
      if (had) accepted[field] = had;
    } else accepted[field] = want;
  };
  check('plural', used.resources, 'PluralConflict');
  check('singular', used.resources, 'SingularConflict');
  const short = s.names.shortNames ?? [];
  const prevShort = (prevAccepted.shortNames as string[] | undefined) ?? [];
  const shortErrs = short.filter((n) => !prevShort.includes(n) && used.resources.has(n)).map((n) => `${JSON.stringify(n)} is already in use`);
  if (shortErrs.length) {
    conflict = { reason: 'ShortNamesConflict', message: shortErrs.length === 1 ? shortErrs[0] : `[${shortErrs.join(', ')}]` };
    if (prevShort.length) accepted.shortNames = prevShort;
  } else if (short.length) accepted.shortNames = short;
  check('kind', used.kinds, 'KindConflict');
  check('listKind', used.kinds, 'ListKindConflict');
  if (s.names.categories?.length) accepted.categories = s.names.categories;
  // key order as the real server writes acceptedNames
  const ordered: Record<string, unknown> = {};
  for (const k of ['plural', 'singular', 'shortNames', 'kind', 'listKind', 'categories']) if (accepted[k] !== undefined) ordered[k] = accepted[k];
  const stored = new Set<string>(Array.isArray(prevStatus.storedVersions) ? (prevStatus.storedVersions as string[]) : []);
  const storage = s.versions.find((v) => v.storage)?.name;
  if (storage) stored.add(storage);
  const prevEstablished = prevConds.find((c) => c.type === 'Established');
  let established: Record<string, unknown>;
  if (prevEstablished?.status === 'True') established = { ...prevEstablished };
  else if (!conflict) established = { type: 'Established', status: 'True', lastTransitionTime: since('Established', 'True'), reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
  else established = { type: 'Established', status: 'False', lastTransitionTime: since('Established', 'False'), reason: 'NotAccepted', message: 'not all names are accepted' };
  const namesAccepted = conflict
    ? { type: 'NamesAccepted', status: 'False', lastTransitionTime: since('NamesAccepted', 'False'), reason: conflict.reason, message: conflict.message }
    : { type: 'NamesAccepted', status: 'True', lastTransitionTime: since('NamesAccepted', 'True'), reason: 'NoConflicts', message: 'no conflicts found' };
  return {
    conditions: [namesAccepted, established],
    acceptedNames: ordered,
    storedVersions: [...stored],
  };
}

/** True when the CRD's status says it is established (its resources are served). */
export function isEstablished(crd: KubeObject): boolean {
  const st = crd.status as Record<string, unknown> | undefined;
  const conds = Array.isArray(st?.conditions) ? (st!.conditions as Record<string, unknown>[]) : [];
  return conds.some((c) => c.type === 'Established' && c.status === 'True');
}
