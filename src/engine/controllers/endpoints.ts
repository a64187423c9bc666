// The Endpoints and EndpointSlice controllers (pkg/controller/endpoint, pkg/controller/endpointslice) as
// service accounts endpoint-controller and endpointslice-controller: for every Service with a selector,
// the pods it selects that have an IP, ready or not (EndpointSlice conditions ready/serving/terminating;
// Endpoints addresses and notReadyAddresses), with the service's ports resolved against the pods' named
// container ports.

import type { KubeObject } from '../object.js';
import type { ControllerContext, ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { canonical } from './deployment.js';
import { keyOf, mapSelectorMatches, podReady, splitKey } from './workload-util.js';

type Obj = Record<string, any>;

const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const SLICE_MANAGER = 'endpointslice-controller.k8s.io';
const SERVICE_NAME = 'kubernetes.io/service-name';

function selectedPods(svc: KubeObject, pods: Iterable<KubeObject>): KubeObject[] {
  const sel = (svc.spec as Obj | undefined)?.selector as Record<string, string> | undefined;
  const out: KubeObject[] = [];
  for (const p of pods) {
    if (p.metadata?.namespace !== svc.metadata?.namespace) continue;
    if (!mapSelectorMatches(sel, p.metadata?.labels as Record<string, string>)) continue;
    const st = (p.status ?? {}) as Obj;
    if (!st.podIP || st.phase === 'Succeeded' || st.phase === 'Failed') continue;
    out.push(p);
  }
  return out.sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
}

/** The port a service port targets on a pod (a named targetPort looks up the pod's container ports). */
function targetPort(sp: Obj, pod: KubeObject | undefined): number | undefined {
  const tp = sp.targetPort ?? sp.port;
  if (typeof tp === 'number') return tp;
  if (/^\d+$/.test(String(tp))) return Number(tp);
  for (const c of ((pod?.spec as Obj | undefined)?.containers ?? []) as Obj[]) {
    for (const p of (c.ports ?? []) as Obj[]) if (p.name === tp && (p.protocol ?? 'TCP') === (sp.protocol ?? 'TCP')) return Number(p.containerPort);
  }
  return undefined;
}

function serviceWatched(svc: KubeObject | undefined): svc is KubeObject {
  const spec = (svc?.spec ?? {}) as Obj;
  return !!svc && spec.type !== 'ExternalName' && !!spec.selector && Object.keys(spec.selector).length > 0;
}

/** Services and pods informers feeding a queue of service keys. */
function serviceQueue(ctx: ControllerContext, reconcile: (key: string, svc: KubeObject | undefined, pods: Map<string, KubeObject>) => Promise<void>): void {
  const services = ctx.informer('/api/v1/services', {
    add: (o) => queue.add(keyOf(o)),
    update: (_, o) => queue.add(keyOf(o)),
    delete: (o) => queue.add(keyOf(o)),
  });
  const podChanged = (p: KubeObject) => {
    for (const s of services.store.values()) {
      if (s.metadata?.namespace === p.metadata?.namespace && serviceWatched(s) && mapSelectorMatches((s.spec as Obj).selector, p.metadata?.labels as Record<string, string>)) queue.add(keyOf(s));
    }
  };
  const pods = ctx.informer('/api/v1/pods', {
    add: podChanged,
    update: (old, p) => {
      podChanged(old);
      podChanged(p);
    },
    delete: podChanged,
  });
  const queue: WorkQueue<string> = ctx.queue<string>(async (key) => {
    await Promise.all([services.synced, pods.synced]);
    await reconcile(key, services.store.get(key), pods.store);
  });
}

export const endpointSliceController: ControllerSpec = {
  serviceAccount: 'endpointslice-controller',
  start(ctx) {
    serviceQueue(ctx, async (key, svc, pods) => {
      const [namespace, name] = splitKey(key);
      const base = `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices`;
      const listed = await ctx.client.request('GET', `${base}?labelSelector=${encodeURIComponent(`${SERVICE_NAME}=${name},${MANAGED_BY}=${SLICE_MANAGER}`)}`);
      if (listed.status >= 400) throw new Error(`listing endpointslices of ${key}: ${listed.status}`);
      const existing = (listed.body.items ?? []) as KubeObject[];
      if (!serviceWatched(svc)) {
        // the service went away (its slices follow it through the garbage collector) or lost its selector
        if (svc) for (const s of existing) await ctx.client.request('DELETE', `${base}/${s.metadata!.name}`);
        return;
      }
      const spec = svc.spec as Obj;
      const selected = selectedPods(svc, pods.values());
      const endpoints = selected.map((p) => {
        const ready = podReady(p);
        const terminating = !!p.metadata?.deletionTimestamp;
        const ep: Obj = {
          addresses: [String((p.status as Obj).podIP)],
          conditions: { ready: ready && !terminating, serving: ready, terminating },
          targetRef: { kind: 'Pod', namespace, name: p.metadata!.name, uid: p.metadata!.uid },
        };
        if ((p.spec as Obj).nodeName) ep.nodeName = (p.spec as Obj).nodeName;
        return ep;
      }).filter((ep) => !ep.conditions.terminating || spec.publishNotReadyAddresses || ep.conditions.serving);
      const ports = ((spec.ports ?? []) as Obj[]).map((sp) => {
        const port = targetPort(sp, selected[0]);
        const out: Obj = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
        if (sp.appProtocol) out.appProtocol = sp.appProtocol;
        return out;
      }).filter((p) => p.port !== undefined);
      const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}), [MANAGED_BY]: SLICE_MANAGER, [SERVICE_NAME]: name };
      if (spec.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
      const desired: Obj = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        addressType: 'IPv4',
        endpoints,
        ports,
      };
      const [keep, ...extra] = existing;
      for (const s of extra) await ctx.client.request('DELETE', `${base}/${s.metadata!.name}`);
      if (!keep) {
        const r = await ctx.client.request('POST', base, {
          ...desired,
          metadata: { generateName: `${name}-`, namespace, labels, ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name, uid: svc.metadata!.uid, controller: true, blockOwnerDeletion: true }] },
        });
        if (r.status >= 400 && r.status !== 404 && r.status !== 403) throw new Error(`creating endpointslice of ${key}: ${r.status} ${r.body?.message}`);
        return;
      }
      const cur = keep as Obj;
      if (canonical(cur.endpoints ?? []) === canonical(endpoints) && canonical(cur.ports ?? []) === canonical(ports) && canonical(cur.metadata?.labels ?? {}) === canonical(labels)) return;
      const r = await ctx.client.request('PUT', `${base}/${keep.metadata!.name}`, { ...cur, ...desired, metadata: { ...cur.metadata, labels } });
      if (r.status >= 400 && r.status !== 409 && r.status !== 404) throw new Error(`updating endpointslice of ${key}: ${r.status}`);
      if (r.status === 409) throw new Error('conflict, retry');
    });
    return { name: 'endpointslice-controller' };
  },
};

export const endpointsController: ControllerSpec = {
  serviceAccount: 'endpoint-controller',
  start(ctx) {
    serviceQueue(ctx, async (key, svc, pods) => {
      const [namespace, name] = splitKey(key);
      const path = `/api/v1/namespaces/${namespace}/endpoints/${name}`;
      if (!serviceWatched(svc)) {
        if (!svc) await ctx.client.request('DELETE', path);
        return;
      }
      const spec = svc.spec as Obj;
      const ready: Obj[] = [];
      const notReady: Obj[] = [];
      const selected = selectedPods(svc, pods.values());
      for (const p of selected) {
        if (p.metadata?.deletionTimestamp && !spec.publishNotReadyAddresses) continue;
        const addr: Obj = { ip: String((p.status as Obj).podIP) };
        if ((p.spec as Obj).nodeName) addr.nodeName = (p.spec as Obj).nodeName;
        addr.targetRef = { kind: 'Pod', namespace, name: p.metadata!.name, uid: p.metadata!.uid };
        (podReady(p) || spec.publishNotReadyAddresses ? ready : notReady).push(addr);
      }
      const ports = ((spec.ports ?? []) as Obj[]).map((sp) => {
        const out: Obj = { port: targetPort(sp, selected[0]), protocol: sp.protocol ?? 'TCP' };
        if (sp.name) out.name = sp.name;
        if (sp.appProtocol) out.appProtocol = sp.appProtocol;
        return out;
      }).filter((p) => p.port !== undefined);
      const subsets = ready.length || notReady.length ? [{ ...(ready.length ? { addresses: ready } : {}), ...(notReady.length ? { notReadyAddresses: notReady } : {}), ports }] : [];
      const labels = { ...(svc.metadata?.labels ?? {}) };
      const cur = await ctx.client.request('GET', path);
      if (cur.status === 404) {
        const r = await ctx.client.request('POST', `/api/v1/namespaces/${namespace}/endpoints`, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, labels }, ...(subsets.length ? { subsets } : {}) });
        if (r.status >= 400 && r.status !== 409 && r.status !== 404 && r.status !== 403) throw new Error(`creating endpoints ${key}: ${r.status}`);
        return;
      }
      if (cur.status >= 400) throw new Error(`reading endpoints ${key}: ${cur.status}`);
      const obj = cur.body as Obj;
      if (canonical(obj.subsets ?? []) === canonical(subsets) && canonical(obj.metadata?.labels ?? {}) === canonical(labels)) return;
      const next: Obj = { ...obj, metadata: { ...obj.metadata, labels } };
      if (subsets.length) next.subsets = subsets;
      else delete next.subsets;
      const r = await ctx.client.request('PUT', path, next);
      if (r.status === 409) throw new Error('conflict, retry');
      if (r.status >= 400 && r.status !== 404) throw new Error(`updating endpoints ${key}: ${r.status}`);
    });
    return { name: 'endpoint-controller' };
  },
};
