// Fields behind feature gates (the dropDisabledFields step of the real v1.33 strategies: pkg/api/pod/util.go,
// pkg/api/persistentvolumeclaim/util.go, pkg/api/persistentvolume/util.go and the strategies of statefulsets,
// jobs and horizontalpodautoscalers). On create and on update a gated field is cleared when its gate is off,
// unless the stored (old) object already uses it; then it is kept, so objects written while the gate was on
// survive turning it off. One table, one entry point (dropDisabledFields), called from every built-in kind's
// preparation (resources/factory.ts) before validation.
//
// Only gates that can be off in v1.33 are listed: a gate that is GA and locked on never drops anything.
// Left out on purpose: status-only fields (pod status observedGeneration, resize and allocated
// resources, container status user; node status kubeProxyVersion and features; PVC status allocatedResources;
// job status terminating; deployment/replica set status terminatingReplicas), whose writers are controllers,
// and gates the engine does not model (MutableCSINodeAllocatableCount, PreferSameTrafficDistribution).

import { FEATURE_GATES } from '../features/gates.js';
import type { KubeObject } from '../object.js';

type Obj = Record<string, unknown>;

export interface GatedField {
  gate: string;
  /** Where the rule applies: a pod spec (inside every kind that carries one) or one kind's object root. */
  scope: 'podSpec' | { group: string; resource: string };
  /** The field(s), relative to the scope's root; `*` walks every element of an array. */
  paths: string[];
  /** "In use" by the old object (default: any of `paths` holds a value that is not null or empty). */
  inUse?(root: Obj): boolean;
  /** How to clear it (default: remove every path). */
  drop?(root: Obj): void;
  /** A value that uses the field, for the table-wide test: set at `path` (plus `with`), read back at `path`. */
  sample: { path: string; value: unknown; with?: Record<string, unknown>; dropped?: unknown };
}

/** Where a pod spec sits in each kind that carries one (pod.DropDisabledTemplateFields callers). */
export const POD_SPEC_AT: Readonly<Record<string, string>> = {
  '/pods': 'spec',
  '/podtemplates': 'template.spec',
  '/replicationcontrollers': 'spec.template.spec',
  'apps/deployments': 'spec.template.spec',
  'apps/replicasets': 'spec.template.spec',
  'apps/statefulsets': 'spec.template.spec',
  'apps/daemonsets': 'spec.template.spec',
  'batch/jobs': 'spec.template.spec',
  'batch/cronjobs': 'spec.jobTemplate.spec.template.spec',
};

const CONTAINERS = ['containers', 'initContainers', 'ephemeralContainers'];
const inContainers = (rest: string): string[] => CONTAINERS.map((c) => `${c}.*.${rest}`);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The segments of a path, split once per path (the table's paths are few and fixed). */
const segmentCache = new Map<string, string[]>();
function segmentsOf(path: string): string[] {
  let segs = segmentCache.get(path);
  if (!segs) segmentCache.set(path, (segs = path.split('.')));
  return segs;
}

function collect(v: unknown, segs: string[], i: number, out: unknown[]): void {
  if (i === segs.length) {
    out.push(v);
    return;
  }
  const seg = segs[i];
  if (seg === '*') {
    if (Array.isArray(v)) for (const item of v) collect(item, segs, i + 1, out);
  } else if (isObj(v) && v[seg] !== undefined) collect(v[seg], segs, i + 1, out);
}

/** Every value at `path` (with `*` over arrays), in document order. */
function valuesAt(root: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(root, segmentsOf(path), 0, out);
  return out;
}

function removeFrom(v: unknown, segs: string[], i: number): void {
  const seg = segs[i];
  if (i === segs.length - 1) {
    if (isObj(v)) delete v[seg];
  } else if (seg === '*') {
    if (Array.isArray(v)) for (const item of v) removeFrom(item, segs, i + 1);
  } else if (isObj(v) && v[seg] !== undefined) removeFrom(v[seg], segs, i + 1);
}

/** Removes the field at `path` wherever it is (with `*` over arrays). */
function removeAt(root: unknown, path: string): void {
  removeFrom(root, segmentsOf(path), 0);
}

const used = (v: unknown): boolean =>
  v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && !(isObj(v) && Object.keys(v).length === 0);

/** Removes the `handler` (preStop / postStart) sleep and then the emptied handler and lifecycle. */
function dropSleep(spec: Obj): void {
  for (const c of CONTAINERS.flatMap((k) => valuesAt(spec, `${k}.*`))) {
    if (!isObj(c) || !isObj(c.lifecycle)) continue;
    const lc = c.lifecycle;
    for (const h of ['preStop', 'postStart']) {
      const handler = lc[h];
      if (!isObj(handler) || handler.sleep === undefined) continue;
      delete handler.sleep;
      if (handler.exec == null && handler.httpGet == null && handler.tcpSocket == null) delete lc[h];
    }
    if (lc.preStop == null && lc.postStart == null && lc.stopSignal == null) delete c.lifecycle;
  }
}

function dropStopSignal(spec: Obj): void {
  for (const c of CONTAINERS.flatMap((k) => valuesAt(spec, `${k}.*`))) {
    if (!isObj(c) || !isObj(c.lifecycle) || c.lifecycle.stopSignal == null) continue;
    delete c.lifecycle.stopSignal;
    if (Object.keys(c.lifecycle).length === 0) delete c.lifecycle;
  }
}

/** Image volumes go, and so do the mounts of them. */
function dropImageVolumes(spec: Obj): void {
  if (!Array.isArray(spec.volumes)) return;
  const gone = new Set<string>();
  const kept = spec.volumes.filter((v) => {
    if (isObj(v) && v.image != null) {
      gone.add(String(v.name));
      return false;
    }
    return true;
  });
  // nothing dropped: nothing written (a copy-on-write kind's spec may be a stored state's, frozen)
  if (!gone.size) return;
  if (kept.length) spec.volumes = kept;
  else delete spec.volumes;
  for (const c of CONTAINERS.flatMap((k) => valuesAt(spec, `${k}.*`))) {
    if (!isObj(c) || !Array.isArray(c.volumeMounts)) continue;
    const mounts = c.volumeMounts.filter((m) => !(isObj(m) && gone.has(String(m.name))));
    if (mounts.length) c.volumeMounts = mounts;
    else delete c.volumeMounts;
  }
}


export const GATED_FIELDS: readonly GatedField[] = [
  // pkg/api/pod/util.go dropDisabledFields
  // (spec.hostUsers on the wire; the internal type keeps it in the security context)
  { gate: 'UserNamespacesSupport', scope: 'podSpec', paths: ['hostUsers'], sample: { path: 'hostUsers', value: false } },
  { gate: 'SupplementalGroupsPolicy', scope: 'podSpec', paths: ['securityContext.supplementalGroupsPolicy'], sample: { path: 'securityContext.supplementalGroupsPolicy', value: 'Strict' } },
  {
    gate: 'PodLevelResources', scope: 'podSpec', paths: ['resources'],
    inUse: (s) => valuesAt(s, 'resources.requests').some(used) || valuesAt(s, 'resources.limits').some(used),
    sample: { path: 'resources', value: { limits: { cpu: '1' } } },
  },
  {
    // procMount is forced to Default rather than removed (it was once forced non-nil)
    gate: 'ProcMountType', scope: 'podSpec', paths: inContainers('securityContext.procMount'),
    inUse: (s) => inContainers('securityContext.procMount').some((p) => valuesAt(s, p).some((v) => v !== 'Default')),
    drop: (s) => {
      for (const p of inContainers('securityContext')) for (const sc of valuesAt(s, p)) if (isObj(sc) && sc.procMount != null && sc.procMount !== 'Default') sc.procMount = 'Default';
    },
    sample: { path: 'containers.0.securityContext.procMount', value: 'Unmasked', with: { hostUsers: false }, dropped: 'Default' },
  },
  {
    gate: 'MatchLabelKeysInPodTopologySpread', scope: 'podSpec', paths: ['topologySpreadConstraints.*.matchLabelKeys'],
    sample: {
      path: 'topologySpreadConstraints.0.matchLabelKeys', value: ['pod-template-hash'],
      with: { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'x' } } }] },
    },
  },
  {
    // the claims of containers go with the pod's own list; only the pod's list counts as "in use"
    gate: 'DynamicResourceAllocation', scope: 'podSpec', paths: ['resourceClaims', ...inContainers('resources.claims')],
    inUse: (s) => valuesAt(s, 'resourceClaims').some(used),
    sample: { path: 'resourceClaims', value: [{ name: 'r', resourceClaimName: 'claim' }] },
  },
  {
    gate: 'ClusterTrustBundleProjection', scope: 'podSpec', paths: ['volumes.*.projected.sources.*.clusterTrustBundle'],
    sample: {
      path: 'volumes.0.projected.sources.0.clusterTrustBundle', value: { name: 'bundle', path: 'ca.pem' },
      with: { volumes: [{ name: 'v', projected: { sources: [{}, { configMap: { name: 'cm' } }] } }] },
    },
  },
  {
    // in use when a regular or init container has a resize policy
    gate: 'InPlacePodVerticalScaling', scope: 'podSpec', paths: inContainers('resizePolicy'),
    inUse: (s) => ['containers.*.resizePolicy', 'initContainers.*.resizePolicy'].some((p) => valuesAt(s, p).some(used)),
    sample: { path: 'containers.0.resizePolicy', value: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] },
  },
  {
    gate: 'PodLifecycleSleepAction', scope: 'podSpec', paths: [...inContainers('lifecycle.preStop.sleep'), ...inContainers('lifecycle.postStart.sleep')],
    drop: dropSleep,
    sample: { path: 'containers.0.lifecycle.preStop.sleep', value: { seconds: 5 } },
  },
  {
    gate: 'ImageVolume', scope: 'podSpec', paths: ['volumes.*.image'],
    drop: dropImageVolumes,
    sample: { path: 'volumes.0.image', value: { reference: 'busybox:1', pullPolicy: 'IfNotPresent' }, with: { volumes: [{ name: 'img' }] } },
  },
  { gate: 'SELinuxChangePolicy', scope: 'podSpec', paths: ['securityContext.seLinuxChangePolicy'], sample: { path: 'securityContext.seLinuxChangePolicy', value: 'Recursive' } },
  {
    gate: 'ContainerStopSignals', scope: 'podSpec', paths: inContainers('lifecycle.stopSignal'),
    drop: dropStopSignal,
    sample: { path: 'containers.0.lifecycle.stopSignal', value: 'SIGUSR1', with: { 'os.name': 'linux' } },
  },
  // pkg/registry/apps/statefulset/strategy.go
  {
    gate: 'MaxUnavailableStatefulSet', scope: { group: 'apps', resource: 'statefulsets' }, paths: ['spec.updateStrategy.rollingUpdate.maxUnavailable'],
    sample: { path: 'spec.updateStrategy.rollingUpdate.maxUnavailable', value: 2, with: { 'spec.updateStrategy.type': 'RollingUpdate' } },
  },
  // pkg/registry/batch/job/strategy.go
  { gate: 'JobManagedBy', scope: { group: 'batch', resource: 'jobs' }, paths: ['spec.managedBy'], sample: { path: 'spec.managedBy', value: 'example.com/queue' } },
  { gate: 'JobPodReplacementPolicy', scope: { group: 'batch', resource: 'jobs' }, paths: ['spec.podReplacementPolicy'], sample: { path: 'spec.podReplacementPolicy', value: 'Failed' } },
  // pkg/api/persistentvolumeclaim/util.go, pkg/api/persistentvolume/util.go
  { gate: 'AnyVolumeDataSource', scope: { group: '', resource: 'persistentvolumeclaims' }, paths: ['spec.dataSourceRef'], sample: { path: 'spec.dataSourceRef', value: { apiGroup: 'example.com', kind: 'Source', name: 's' } } },
  { gate: 'VolumeAttributesClass', scope: { group: '', resource: 'persistentvolumeclaims' }, paths: ['spec.volumeAttributesClassName'], sample: { path: 'spec.volumeAttributesClassName', value: 'gold' } },
  { gate: 'VolumeAttributesClass', scope: { group: '', resource: 'persistentvolumes' }, paths: ['spec.volumeAttributesClassName'], sample: { path: 'spec.volumeAttributesClassName', value: 'gold' } },
  // pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go
  {
    gate: 'HPAConfigurableTolerance', scope: { group: 'autoscaling', resource: 'horizontalpodautoscalers' },
    paths: ['spec.behavior.scaleUp.tolerance', 'spec.behavior.scaleDown.tolerance'],
    sample: { path: 'spec.behavior.scaleUp.tolerance', value: '50m' },
  },
];

/** The gate's value in the cluster (its v1.33 default when the cluster's settings do not name it). */
export function gateOn(gates: Record<string, boolean> | undefined, gate: string): boolean {
  const v = gates?.[gate];
  return v ?? FEATURE_GATES[gate]?.default ?? false;
}

const rowsByKey = new Map<string, { row: GatedField; at: string }[]>();
for (const row of GATED_FIELDS) {
  const places = row.scope === 'podSpec' ? Object.entries(POD_SPEC_AT) : [[`${row.scope.group}/${row.scope.resource}`, '']];
  for (const [key, at] of places) {
    const list = rowsByKey.get(key) ?? [];
    list.push({ row, at });
    rowsByKey.set(key, list);
  }
}

/** The rows that apply to a kind, with where their root sits in the object ('' is the object itself). */
export function gatedFieldsOf(group: string, resource: string): { row: GatedField; at: string }[] {
  return rowsByKey.get(`${group}/${resource}`) ?? [];
}

function rootAt(obj: unknown, at: string): Obj | undefined {
  if (!at) return isObj(obj) ? obj : undefined;
  const [v] = valuesAt(obj, at);
  return isObj(v) ? v : undefined;
}

/** The rows of a kind whose gate is off, per gate settings (an engine keeps one settings object). */
const offRowsByGates = new WeakMap<object, Map<string, { row: GatedField; at: string }[]>>();
const offRowsByDefault = new Map<string, { row: GatedField; at: string }[]>();

function offRowsOf(group: string, resource: string, gates: Record<string, boolean> | undefined): { row: GatedField; at: string }[] {
  const key = `${group}/${resource}`;
  const rows = rowsByKey.get(key);
  if (!rows) return [];
  let byKey = gates ? offRowsByGates.get(gates) : offRowsByDefault;
  if (!byKey) offRowsByGates.set(gates!, (byKey = new Map()));
  let off = byKey.get(key);
  if (!off) byKey.set(key, (off = rows.filter(({ row }) => !gateOn(gates, row.gate))));
  return off;
}

/**
 * Clears, in `obj`, every gated field of the kind whose gate is off, unless `old` (the stored object of an
 * update) already uses it. Mutates `obj`. The rows whose gate is off are worked out once per kind and gate
 * settings, so a kind no disabled gate reaches costs one lookup. Writes only what it drops: a field that is
 * not there is not written (copy-on-write kinds share the unchanged parts of `obj` with `old`, frozen).
 */
export function dropDisabledFields(group: string, resource: string, obj: KubeObject, old: KubeObject | undefined, gates: Record<string, boolean> | undefined): void {
  for (const { row, at } of offRowsOf(group, resource, gates)) {
    const root = rootAt(obj, at);
    if (!root) continue;
    const oldRoot = old ? rootAt(old, at) : undefined;
    if (oldRoot && (row.inUse ? row.inUse(oldRoot) : row.paths.some((p) => valuesAt(oldRoot, p).some(used)))) continue;
    if (row.drop) row.drop(root);
    else for (const p of row.paths) removeAt(root, p);
  }
}
