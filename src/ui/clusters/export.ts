// "Export as kubectl YAML": the objects a user made in a browser cluster, as one multi-document YAML that
// `kubectl apply -f` takes to a real cluster. Read over the API (every listable resource, all namespaces);
// what every fresh cluster has (system namespaces and their content, the bootstrap RBAC policy, the
// `kubernetes` Service, kube-root-ca.crt, default service accounts, system PriorityClasses) is left out, and
// so is what the server owns (uid, resourceVersion, managedFields, status, ownerReferences...). Pure helpers
// take the listed objects; `collectObjects` does the listing.
import { dump } from 'js-yaml';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

const SYSTEM_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
/** Namespaces whose content is the cluster's own. */
const SYSTEM_CONTENT_NAMESPACES = new Set(['kube-system', 'kube-public', 'kube-node-lease']);
/** Kinds that are records of what happened, answered by the server itself, or registered by kubelets (Nodes). */
const SKIPPED_KINDS = new Set(['Event', 'APIService', 'ComponentStatus', 'Binding', 'TokenReview', 'SelfSubjectReview', 'Node']);

/** Whether every fresh cluster has this object (so an export leaves it out). */
export function isDefaultObject(o: KubeObject): boolean {
  const m = o.metadata ?? {};
  const name = m.name ?? '';
  const ns = m.namespace;
  if (SKIPPED_KINDS.has(o.kind ?? '')) return true;
  if (o.kind === 'Namespace') return SYSTEM_NAMESPACES.has(name);
  if (ns && SYSTEM_CONTENT_NAMESPACES.has(ns)) return true;
  if (m.labels?.['kubernetes.io/bootstrapping'] === 'rbac-defaults') return true;
  if (o.kind === 'ConfigMap' && name === 'kube-root-ca.crt') return true;
  if (o.kind === 'ServiceAccount' && name === 'default') return true;
  if (ns === 'default' && name === 'kubernetes' && ['Service', 'Endpoints', 'EndpointSlice'].includes(o.kind ?? '')) return true;
  if (o.kind === 'PriorityClass' && name.startsWith('system-')) return true;
  if (o.kind === 'Secret' && o.type === 'kubernetes.io/service-account-token') return true;
  // the API Priority and Fairness objects the server keeps up to date, and the default ServiceCIDR
  if ((o.kind === 'FlowSchema' || o.kind === 'PriorityLevelConfiguration') && m.annotations?.['apf.kubernetes.io/autoupdate-spec'] === 'true') return true;
  if (o.kind === 'ServiceCIDR' && name === 'kubernetes') return true;
  // what a controller made for its owner (a Deployment's ReplicaSets and Pods, a Service's EndpointSlices)
  // comes back when the owner is applied
  if (Array.isArray(m.ownerReferences) && m.ownerReferences.some((r) => (r as { controller?: boolean }).controller === true)) return true;
  return false;
}

const SERVER_METADATA = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences'];

/** The object as a manifest: what the server set or owns removed. */
export function cleanForExport(o: KubeObject): KubeObject {
  const { status: _status, ...rest } = o;
  void _status;
  const metadata: Record<string, unknown> = { ...(o.metadata ?? {}) };
  for (const k of SERVER_METADATA) delete metadata[k];
  const annotations = { ...((metadata.annotations as Record<string, string> | undefined) ?? {}) };
  delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  const out: KubeObject = { ...rest, metadata };
  // addresses the other cluster assigns itself
  if (o.kind === 'Service' && out.spec && typeof out.spec === 'object') {
    const spec = { ...(out.spec as Record<string, unknown>) };
    if (spec.clusterIP !== 'None') {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    out.spec = spec;
  }
  return out;
}

/** Order for `kubectl apply -f`: namespaces, CRDs and cluster-wide objects first, then the rest. */
function rank(o: KubeObject): number {
  if (o.kind === 'Namespace') return 0;
  if (o.kind === 'CustomResourceDefinition') return 1;
  if (!o.metadata?.namespace) return 2;
  if (o.kind === 'ServiceAccount' || o.kind === 'Role' || o.kind === 'ConfigMap' || o.kind === 'Secret') return 3;
  return 4;
}

/** The exported objects, in apply order, then by kind, namespace and name. */
export function exportObjects(objects: KubeObject[]): KubeObject[] {
  return objects
    .filter((o) => !isDefaultObject(o))
    .map(cleanForExport)
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (a.kind ?? '').localeCompare(b.kind ?? '') ||
        (a.metadata?.namespace ?? '').localeCompare(b.metadata?.namespace ?? '') ||
        (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    );
}

/** Multi-document YAML with a header comment. */
export function toKubectlYaml(objects: KubeObject[], cluster: string): string {
  const header = `# Exported from the browser cluster "${cluster}" of the Kubernetes API playground: ${objects.length} object${objects.length === 1 ? '' : 's'}.\n# Apply to a cluster with: kubectl apply -f <this file>\n`;
  if (objects.length === 0) return `${header}# (nothing but what every fresh cluster has)\n`;
  return header + objects.map((o) => `---\n${dump(o, { noRefs: true, lineWidth: -1 })}`).join('');
}

interface ResourceInfo {
  groupVersion: string;
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

/**
 * Lists every listable resource of `resources` cluster-wide with `getJson`, the items carrying their
 * apiVersion and kind (a list's items omit them). One version per group kind.
 */
export async function collectObjects(resources: ResourceInfo[], getJson: (path: string) => Promise<unknown>): Promise<KubeObject[]> {
  const seen = new Set<string>();
  const out: KubeObject[] = [];
  for (const r of resources) {
    if (r.name.includes('/') || !r.verbs.includes('list')) continue;
    const group = r.groupVersion.includes('/') ? r.groupVersion.split('/')[0] : '';
    const key = `${group}/${r.name}`;
    if (seen.has(key) || SKIPPED_KINDS.has(r.kind)) continue;
    seen.add(key);
    const path = `${r.groupVersion.includes('/') ? '/apis' : '/api'}/${r.groupVersion}/${r.name}`;
    const list = (await getJson(path)) as { items?: KubeObject[] } | undefined;
    for (const item of list?.items ?? []) out.push({ apiVersion: r.groupVersion, kind: r.kind, ...item });
  }
  return out;
}
