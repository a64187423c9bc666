// The garbage collector [K8S pkg/controller/garbagecollector]: a graph of owners and dependents built from
// a watch of every deletable resource (custom resources too; the set follows discovery), and three jobs:
// - attemptToDelete: a dependent whose owners are all gone (verified by a live GET and the uid) is deleted;
//   owners being deleted in the foreground ("waiting") count as gone; a dependent with a live owner loses
//   only its references to absent or waiting owners;
// - foreground: an owner with deletionTimestamp + foregroundDeletion has its dependents deleted, and loses
//   the finalizer once no dependent with blockOwnerDeletion=true is left;
// - orphan: an owner with deletionTimestamp + orphan has its references removed from every dependent, then
//   loses the finalizer.

import type { KubeObject } from '../object.js';
import { ApiError } from './client.js';
import { collectionPath, objectPath, type DiscoveredResource } from './discovery.js';
import type { Informer } from './informer.js';
import type { ControllerContext, ControllerSpec } from './manager.js';

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';
/** Resources the real collector does not watch. */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);

interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

interface Node {
  uid: string;
  resource: DiscoveredResource;
  namespace: string;
  name: string;
  owners: OwnerRef[];
  finalizers: string[];
  beingDeleted: boolean;
}

function toNode(obj: KubeObject, resource: DiscoveredResource): Node {
  const m = obj.metadata ?? {};
  return {
    uid: m.uid ?? '',
    resource,
    namespace: m.namespace ?? '',
    name: m.name ?? '',
    owners: ((m.ownerReferences ?? []) as OwnerRef[]).filter((r) => r && r.uid),
    finalizers: m.finalizers ?? [],
    beingDeleted: !!m.deletionTimestamp,
  };
}

const deletingDependents = (n: Node | undefined) => !!n && n.beingDeleted && n.finalizers.includes(FOREGROUND);

export const garbageCollector: ControllerSpec = {
  serviceAccount: 'generic-garbage-collector',
  start(ctx: ControllerContext) {
    const { client } = ctx;
    const nodes = new Map<string, Node>();
    const monitors = new Map<string, Informer>();
    let resources: DiscoveredResource[] = [];

    const dependentsOf = (uid: string) => [...nodes.values()].filter((n) => n.owners.some((r) => r.uid === uid));

    // like the real collector, no decision before every monitor has listed (a partial graph could orphan
    // too little or delete what an unseen owner still holds)
    const allSynced = () => Promise.all([...monitors.values()].map((m) => m.synced));
    const attempt = ctx.queue<string>(async (uid) => {
      await allSynced();
      await attemptToDelete(uid);
    });
    const orphan = ctx.queue<string>(async (uid) => {
      await allSynced();
      await orphanDependents(uid);
    });
    const resync = ctx.queue<string>(syncMonitors);

    /**
     * Whether a new reference needs the owner verified through the API (addDependentToOwners): the graph
     * does not hold its uid (the real graph's virtual node), or holds it in another namespace or under other
     * coordinates.
     */
    function unverified(ref: OwnerRef, dependent: Node): boolean {
      const owner = nodes.get(ref.uid);
      if (!owner) return true;
      if (owner.resource.namespaced && owner.namespace !== dependent.namespace) return true;
      const r = owner.resource;
      return ref.name !== owner.name || ref.kind !== r.kind || ref.apiVersion !== (r.group ? `${r.group}/${r.version}` : r.version);
    }

    function upsert(obj: KubeObject, resource: DiscoveredResource): void {
      const node = toNode(obj, resource);
      if (!node.uid) return;
      const prev = nodes.get(node.uid)?.owners ?? [];
      nodes.set(node.uid, node);
      // as the real graph builder (processGraphChanges): a dependent is looked at when a reference it gained
      // names an owner the graph cannot vouch for, not on every change (an owner that goes later has its
      // dependents looked at then); an owner deleting its dependents, when a blocking reference to it goes
      for (const r of node.owners) {
        // (an owner deleting its dependents in the foreground: the new dependent goes at once, where the real
        // collector finds it by polling the waiting owner)
        if (!prev.some((p) => p.uid === r.uid) && (unverified(r, node) || deletingDependents(nodes.get(r.uid)))) {
          attempt.add(node.uid);
          break;
        }
      }
      for (const p of prev) {
        if (p.blockOwnerDeletion !== true) continue;
        const now = node.owners.find((r) => r.uid === p.uid);
        if ((!now || now.blockOwnerDeletion !== true) && deletingDependents(nodes.get(p.uid))) attempt.add(p.uid);
      }
      if (node.beingDeleted && node.finalizers.includes(ORPHAN)) orphan.add(node.uid);
      if (deletingDependents(node)) {
        attempt.add(node.uid);
        for (const d of dependentsOf(node.uid)) attempt.add(d.uid);
      }
    }

    function remove(obj: KubeObject): void {
      const uid = obj.metadata?.uid ?? '';
      nodes.delete(uid);
      for (const d of dependentsOf(uid)) attempt.add(d.uid);
      for (const r of (obj.metadata?.ownerReferences ?? []) as OwnerRef[]) if (deletingDependents(nodes.get(r.uid))) attempt.add(r.uid);
    }

    /** Watch every resource that can be listed, watched and deleted (preferred version of each). */
    async function syncMonitors(): Promise<void> {
      resources = await ctx.discovery();
      const wanted = new Map<string, DiscoveredResource>();
      for (const r of resources) {
        const gr = `${r.group}/${r.resource}`;
        if (r.resource.includes('/') || IGNORED.has(gr)) continue;
        if (!['list', 'watch', 'delete'].every((v) => r.verbs.includes(v))) continue;
        if (!wanted.has(gr) || r.preferred) wanted.set(gr, r);
      }
      for (const [gr, inf] of [...monitors]) {
        if (!wanted.has(gr)) {
          inf.stop();
          monitors.delete(gr);
        }
      }
      for (const [gr, r] of wanted) {
        if (monitors.has(gr)) continue;
        // metadata informers, as the real collector's monitors: ownership lives in metadata alone
        const inf = ctx.informer(
          collectionPath(r),
          {
            add: (o) => upsert(o, r),
            update: (_old, o) => upsert(o, r),
            delete: (o) => remove(o),
          },
          () => monitors.delete(gr),
          { metadataOnly: true },
        );
        monitors.set(gr, inf);
      }
    }

    /** The resource of an owner reference (kind in that group/version). */
    async function mapping(ref: OwnerRef): Promise<DiscoveredResource | undefined> {
      const i = ref.apiVersion.indexOf('/');
      const group = i < 0 ? '' : ref.apiVersion.slice(0, i);
      const version = i < 0 ? ref.apiVersion : ref.apiVersion.slice(i + 1);
      const find = () => resources.find((r) => r.group === group && r.version === version && r.kind === ref.kind && !r.resource.includes('/'));
      let r = find();
      if (!r) {
        resources = await ctx.discovery();
        r = find();
      }
      return r;
    }

    /** solid: the owner exists with that uid; dangling: it does not; waiting: it is deleted in the foreground. */
    async function classify(ref: OwnerRef, dependentNamespace: string): Promise<'solid' | 'dangling' | 'waiting'> {
      const r = await mapping(ref);
      if (!r) throw new Error(`unable to get REST mapping for ${ref.apiVersion}/${ref.kind}`);
      // a cluster-scoped dependent cannot name a namespaced owner: unresolvable, never collected
      if (r.namespaced && !dependentNamespace) return 'solid';
      const got = await client.get(objectPath(r, dependentNamespace, ref.name));
      if (got.status === 404) return 'dangling';
      if (got.status !== 200) throw new ApiError(got.status, got.body);
      if (got.body.metadata?.uid !== ref.uid) return 'dangling';
      const m = got.body.metadata ?? {};
      if (m.deletionTimestamp && (m.finalizers ?? []).includes(FOREGROUND)) return 'waiting';
      return 'solid';
    }

    async function getLatest(node: Node): Promise<KubeObject | undefined> {
      const got = await client.get(objectPath(node.resource, node.namespace, node.name));
      if (got.status === 404) return undefined;
      if (got.status !== 200) throw new ApiError(got.status, got.body);
      if (got.body.metadata?.uid !== node.uid) return undefined;
      return got.body;
    }

    async function patchMeta(node: Node, latest: KubeObject, metadata: Record<string, unknown>): Promise<void> {
      const body = { metadata: { ...metadata, uid: latest.metadata?.uid, resourceVersion: latest.metadata?.resourceVersion } };
      const r = await client.request('PATCH', objectPath(node.resource, node.namespace, node.name), body, 'application/merge-patch+json');
      if (r.status >= 400 && r.status !== 404) throw new ApiError(r.status, r.body);
    }

    async function removeFinalizer(node: Node, latest: KubeObject, finalizer: string): Promise<void> {
      const fins = latest.metadata?.finalizers ?? [];
      if (!fins.includes(finalizer)) return;
      const rest = fins.filter((f) => f !== finalizer);
      await patchMeta(node, latest, { finalizers: rest.length ? rest : null });
    }

    async function attemptToDelete(uid: string): Promise<void> {
      const node = nodes.get(uid);
      if (!node) return;
      const latest = await getLatest(node);
      if (!latest) return;
      const meta = latest.metadata ?? {};
      const fins = meta.finalizers ?? [];
      if (meta.deletionTimestamp && fins.includes(FOREGROUND)) return processDeletingDependents(node, latest);
      // being deleted: a one-way trip; its dependents are processed once it is gone
      if (meta.deletionTimestamp) return;
      const owners = ((meta.ownerReferences ?? []) as OwnerRef[]).filter((r) => r && r.uid);
      if (owners.length === 0) return;
      const solid: OwnerRef[] = [];
      const gone: OwnerRef[] = [];
      let waiting = 0;
      for (const ref of owners) {
        const c = await classify(ref, node.namespace);
        if (c === 'solid') solid.push(ref);
        else gone.push(ref);
        if (c === 'waiting') waiting++;
      }
      if (solid.length) {
        // a live owner keeps the dependent: only the references to absent or waiting owners go
        if (gone.length) {
          const keep = owners.filter((r) => !gone.some((g) => g.uid === r.uid));
          await patchMeta(node, latest, { ownerReferences: keep });
        }
        return;
      }
      let policy = 'Background';
      if (waiting > 0 && dependentsOf(uid).length > 0) policy = 'Foreground';
      else if (fins.includes(ORPHAN)) policy = 'Orphan';
      else if (fins.includes(FOREGROUND)) policy = 'Foreground';
      const r = await client.request('DELETE', objectPath(node.resource, node.namespace, node.name), {
        kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid }, propagationPolicy: policy,
      });
      if (r.status >= 400 && r.status !== 404 && r.status !== 409) throw new ApiError(r.status, r.body);
    }

    async function processDeletingDependents(node: Node, latest: KubeObject): Promise<void> {
      const dependents = dependentsOf(node.uid);
      const blocking = dependents.filter((d) => d.owners.some((r) => r.uid === node.uid && r.blockOwnerDeletion === true));
      if (blocking.length === 0) {
        await removeFinalizer(node, latest, FOREGROUND);
        return;
      }
      for (const d of dependents) if (!deletingDependents(d)) attempt.add(d.uid);
    }

    async function orphanDependents(uid: string): Promise<void> {
      const owner = nodes.get(uid);
      if (!owner) return;
      for (const dep of dependentsOf(uid)) {
        const latest = await getLatest(dep);
        if (!latest) continue;
        const refs = ((latest.metadata?.ownerReferences ?? []) as OwnerRef[]);
        if (!refs.some((r) => r.uid === uid)) continue;
        const keep = refs.filter((r) => r.uid !== uid);
        await patchMeta(dep, latest, { ownerReferences: keep.length ? keep : null });
      }
      const latest = await getLatest(owner);
      if (!latest || !latest.metadata?.deletionTimestamp) return;
      await removeFinalizer(owner, latest, ORPHAN);
    }

    // the set of watched resources follows the CRDs
    ctx.informer('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      add: () => resync.add('all'),
      update: () => resync.add('all'),
      delete: () => resync.add('all'),
    });
    const first = ctx.env.timers.setTimeout(() => resync.add('all'), 0);

    return { name: 'garbage-collector-controller', stop: () => ctx.env.timers.clearTimeout(first) };
  },
};
