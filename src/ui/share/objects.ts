// A scenario's cluster objects: read from the cluster (its non-system objects, without the fields the
// server sets, within a size budget) and created again in another cluster, in an order that works
// (CustomResourceDefinitions, then namespaces, then the rest; what fails for want of a CRD that was not
// served yet is tried once more). Pure apart from the fetch given.
import { collectionPath, ResourceCatalog, type Fetcher, type ResourceInfo } from '../terminal/resources.js';
import { isDefaultObject, type KubeObject } from '../clusters/export.js';

const SYSTEM_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease']);
/** Kinds that are never carried: records, reviews and what the cluster keeps by itself. */
const SKIPPED_RESOURCES = new Set(['events', 'leases', 'endpoints', 'endpointslices', 'componentstatuses', 'bindings', 'tokenreviews', 'apiservices', 'flowschemas', 'prioritylevelconfigurations']);
/** Largest JSON of the objects carried by default. */
export const OBJECTS_BUDGET_BYTES = 256 * 1024;

type Obj = { apiVersion?: string; kind?: string; metadata?: Record<string, unknown>; status?: unknown; [k: string]: unknown };

/** Whether an object is one the cluster made (or would make) by itself. */
export function isSystemObject(r: Pick<ResourceInfo, 'plural' | 'group'>, o: Obj): boolean {
  const meta = o.metadata ?? {};
  const name = String(meta.name ?? '');
  const ns = typeof meta.namespace === 'string' ? meta.namespace : undefined;
  const labels = (meta.labels ?? {}) as Record<string, string>;
  // what every fresh cluster has (one list, shared with the cluster export)
  if (isDefaultObject(o as KubeObject)) return true;
  if (ns && SYSTEM_NAMESPACES.has(ns)) return true;
  if (r.plural === 'namespaces' && (name === 'default' || SYSTEM_NAMESPACES.has(name))) return true;
  if (name.startsWith('system:') || labels['kubernetes.io/bootstrapping'] === 'rbac-defaults') return true;
  if (r.plural === 'configmaps' && name === 'kube-root-ca.crt') return true;
  if (r.plural === 'serviceaccounts' && name === 'default') return true;
  if (r.plural === 'services' && ns === 'default' && name === 'kubernetes') return true;
  if (r.plural === 'priorityclasses' && name.startsWith('system-')) return true;
  if (Array.isArray(meta.ownerReferences) && meta.ownerReferences.length > 0) return true; // a controller's, or tied to a uid
  return false;
}

/** The object as a manifest: no status and none of the metadata the server sets. */
export function asManifest(o: Obj): Obj {
  const { status: _status, ...rest } = o;
  void _status;
  const meta = { ...(o.metadata ?? {}) };
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences']) delete meta[k];
  return { ...rest, metadata: meta };
}

function rank(r: ResourceInfo): number {
  if (r.plural === 'customresourcedefinitions') return 0;
  if (r.plural === 'namespaces') return 1;
  if (!r.namespaced) return 2;
  return 3;
}

export interface CollectedObjects {
  objects: Obj[];
  /** Objects left out because the budget was spent. */
  omitted: number;
}

/** The cluster's non-system objects as manifests, within `budgetBytes` of JSON. */
export async function collectObjects(fetch: Fetcher, budgetBytes = OBJECTS_BUDGET_BYTES): Promise<CollectedObjects> {
  const catalog = await ResourceCatalog.load(fetch);
  const resources = catalog.preferred.filter((r) => r.verbs.includes('list') && r.verbs.includes('create') && !SKIPPED_RESOURCES.has(r.plural)).sort((a, b) => rank(a) - rank(b));
  const objects: Obj[] = [];
  let used = 2;
  let omitted = 0;
  for (const r of resources) {
    const res = await fetch(collectionPath(r, undefined), { headers: { Accept: 'application/json' } });
    if (!res.ok) continue;
    const list = (await res.json()) as { items?: Obj[] };
    const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    for (const item of list.items ?? []) {
      const o = { apiVersion, kind: r.kind, ...item };
      if (isSystemObject(r, o)) continue;
      const m = asManifest(o);
      const size = JSON.stringify(m).length + 1;
      if (used + size > budgetBytes) {
        omitted++;
        continue;
      }
      used += size;
      objects.push(m);
    }
  }
  return { objects, omitted };
}

export interface CreateOutcome {
  created: number;
  /** One line per object that could not be created. */
  errors: string[];
}

/**
 * Creates the objects in order (POST; an object that exists already counts as an error). Objects refused
 * with 404 (their kind is not served yet: a CRD still being established) are tried again after `wait`.
 */
export async function createObjects(fetch: Fetcher, objects: Obj[], wait: () => Promise<void> = () => new Promise((r) => setTimeout(r, 1000))): Promise<CreateOutcome> {
  let catalog = await ResourceCatalog.load(fetch);
  let pending = objects;
  const errors: string[] = [];
  let created = 0;
  for (let round = 0; round < 3 && pending.length; round++) {
    if (round > 0) {
      await wait();
      catalog = await ResourceCatalog.load(fetch);
    }
    const retry: Obj[] = [];
    for (const o of pending) {
      const [group, version] = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/') : ['', String(o.apiVersion)];
      const r = catalog.everyVersion.find((x) => x.group === group && x.version === version && x.kind === o.kind);
      const meta = o.metadata ?? {};
      const label = `${o.kind} ${meta.namespace ? `${String(meta.namespace)}/` : ''}${String(meta.name)}`;
      if (!r) {
        retry.push(o);
        continue;
      }
      const ns = r.namespaced ? String(meta.namespace ?? 'default') : undefined;
      const res = await fetch(`${collectionPath(r, ns)}?fieldManager=scenario-link`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(o) });
      if (res.ok) created++;
      else {
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        errors.push(`${label}: ${res.status} ${body.message ?? ''}`.trim());
      }
    }
    pending = retry;
  }
  for (const o of pending) errors.push(`${o.kind} ${String(o.metadata?.name)}: no resource serves ${String(o.apiVersion)} ${String(o.kind)}`);
  return { created, errors };
}
