// The namespace controller [K8S pkg/controller/namespace: namespace_controller.go, deletion/
// namespaced_resources_deleter.go, status_condition_utils.go]: a namespace with a deletionTimestamp is looked
// at 5 s after each change; its content is deleted resource by resource (every namespaced resource with the
// delete verb, in the groups' preferred versions, custom resources too); the status conditions report what
// remains; when nothing remains, the "kubernetes" finalizer leaves spec.finalizers through /finalize and the
// API server removes the namespace.

import { rfc3339 } from '../env.js';
import type { KubeObject } from '../object.js';
import { ApiError } from './client.js';
import { collectionPath, type DiscoveredResource } from './discovery.js';
import type { ControllerContext, ControllerSpec } from './manager.js';

/** namespaceDeletionGracePeriod: how long after a change the controller looks at a terminating namespace. */
export const NAMESPACE_DELETION_DELAY_MS = 5000;
/** The estimate assumed for content that waits on finalizers. */
const FINALIZER_ESTIMATE_SECONDS = 15;
const FINALIZER_TOKEN = 'kubernetes';

const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
type ConditionType = (typeof CONDITION_TYPES)[number];

const OK: Record<ConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

interface Condition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

class ResourcesRemaining extends Error {
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
  }
}

/** GroupVersionResource as Go prints it: "/v1, Resource=pods", "apps/v1, Resource=deployments". */
function gvrString(r: DiscoveredResource): string {
  return `${r.group}/${r.version}, Resource=${r.resource}`;
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several in brackets. */
function aggregate(msgs: string[]): string {
  const uniq = [...new Set(msgs)];
  return uniq.length === 1 ? uniq[0] : `[${uniq.join(', ')}]`;
}

export const namespaceController: ControllerSpec = {
  serviceAccount: 'namespace-controller',
  start(ctx: ControllerContext) {
    const { client, env } = ctx;
    const nsPath = (name: string) => `/api/v1/namespaces/${encodeURIComponent(name)}`;
    const queue = ctx.queue<string>(async (name) => {
      try {
        await syncNamespace(name);
        queue.forget(name);
      } catch (e) {
        if (e instanceof ResourcesRemaining) queue.addAfter(name, (Math.floor(e.estimate / 2) + 1) * 1000);
        else queue.addRateLimited(name);
      }
    });
    const enqueue = (ns: KubeObject) => {
      if (!ns.metadata?.deletionTimestamp) return;
      queue.addAfter(ns.metadata.name ?? '', NAMESPACE_DELETION_DELAY_MS);
    };
    ctx.informer('/api/v1/namespaces', { add: enqueue, update: (_old, ns) => enqueue(ns) });

    async function syncNamespace(name: string): Promise<void> {
      const got = await client.get(nsPath(name));
      if (got.status === 404) return;
      if (got.status !== 200) throw new ApiError(got.status, got.body);
      let ns = got.body;
      if (!ns.metadata?.deletionTimestamp) return;
      // the phase says Terminating
      if ((ns.status as { phase?: string } | undefined)?.phase !== 'Terminating') {
        ns = await client.must('PUT', `${nsPath(name)}/status`, { ...ns, status: { ...(ns.status ?? {}), phase: 'Terminating' } });
      }
      const finalizers = ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []);
      if (finalizers.length === 0) return;
      const estimate = await deleteAllContent(ns);
      if (estimate > 0) throw new ResourcesRemaining(estimate);
      // nothing left: our finalizer goes (retried on conflict with the latest namespace)
      for (let attempt = 0; ; attempt++) {
        const fins = [...new Set(((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).filter((f) => f !== FINALIZER_TOKEN))].sort();
        const r = await client.request('PUT', `${nsPath(name)}/finalize`, { ...ns, spec: { ...(ns.spec ?? {}), finalizers: fins } });
        if (r.status < 400 || r.status === 404) return;
        if (r.status !== 409 || attempt > 5) throw new ApiError(r.status, r.body);
        const again = await client.get(nsPath(name));
        if (again.status === 404) return;
        if (again.body.metadata?.uid !== ns.metadata?.uid) throw new Error('namespace uid has changed across retries');
        ns = again.body;
      }
    }

    /** Deletes everything in the namespace; returns an estimate (s) of when what remains will be gone. */
    async function deleteAllContent(ns: KubeObject): Promise<number> {
      const namespace = ns.metadata!.name!;
      const deletedAt = Date.parse(ns.metadata!.deletionTimestamp!);
      const errors: string[] = [];
      const newConditions: Condition[] = [];
      const now = rfc3339(env.clock.now());
      let estimate = 0;
      let resources: DiscoveredResource[] = [];
      try {
        resources = (await ctx.discovery()).filter((r) => r.preferred && r.namespaced && r.verbs.includes('delete') && !r.resource.includes('/'));
      } catch (e) {
        errors.push(String((e as Error).message));
        newConditions.push({ type: 'NamespaceDeletionDiscoveryFailure', status: 'True', lastTransitionTime: now, reason: 'DiscoveryFailed', message: String((e as Error).message) });
      }
      const remainingByResource = new Map<string, number>();
      const remainingByFinalizer = new Map<string, number>();
      const contentErrors: string[] = [];
      for (const r of resources) {
        try {
          const out = await deleteAllContentForResource(r, namespace, deletedAt);
          if (out.estimate > estimate) estimate = out.estimate;
          if (out.remaining > 0) {
            remainingByResource.set(`${r.resource}.${r.group}`, out.remaining);
            for (const [f, n] of out.finalizers) remainingByFinalizer.set(f, (remainingByFinalizer.get(f) ?? 0) + n);
          }
        } catch (e) {
          const err = e as Error & { estimate?: number; remaining?: number };
          contentErrors.push(err.message);
          if ((err.estimate ?? 0) > estimate) estimate = err.estimate!;
          if ((err.remaining ?? 0) > 0) remainingByResource.set(`${r.resource}.${r.group}`, err.remaining!);
        }
      }
      if (remainingByResource.size) {
        const parts = [...remainingByResource].map(([res, n]) => `${res} has ${n} resource instances`).sort();
        newConditions.push({ type: 'NamespaceContentRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${parts.join(', ')}` });
      }
      if (remainingByFinalizer.size) {
        const parts = [...remainingByFinalizer].map(([f, n]) => `${f} in ${n} resource instances`).sort();
        newConditions.push({ type: 'NamespaceFinalizersRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${parts.join(', ')}` });
      }
      if (contentErrors.length) {
        const sorted = [...contentErrors].sort();
        newConditions.push({
          type: 'NamespaceDeletionContentFailure', status: 'True', lastTransitionTime: now, reason: 'ContentDeletionFailed',
          message: `Failed to delete all resource types, ${contentErrors.length} remaining: ${aggregate(sorted)}`,
        });
      }
      await updateConditions(ns, newConditions, now);
      const all = [...errors, ...contentErrors];
      if (all.length) throw new Error(aggregate(all));
      return estimate;
    }

    async function updateConditions(ns: KubeObject, newConditions: Condition[], now: string): Promise<void> {
      const status = { ...((ns.status ?? {}) as { conditions?: Condition[] }) };
      const conditions = [...(status.conditions ?? [])].map((c) => ({ ...c }));
      let changed = false;
      for (const type of CONDITION_TYPES) {
        const next = newConditions.find((c) => c.type === type) ?? { type, status: 'False', lastTransitionTime: now, ...OK[type] };
        const old = conditions.find((c) => c.type === type);
        if (!old) {
          conditions.push(next);
          changed = true;
        } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
          if (old.status !== next.status) old.lastTransitionTime = now;
          old.status = next.status;
          old.reason = next.reason;
          old.message = next.message;
          changed = true;
        }
      }
      if (!changed) return;
      // a failed status write is only logged by the real controller; the next pass writes again
      const r = await client.request('PUT', `${nsPath(ns.metadata!.name!)}/status`, { ...ns, status: { ...status, conditions } });
      void r;
    }

    async function deleteAllContentForResource(r: DiscoveredResource, namespace: string, deletedAt: number) {
      let estimate = 0;
      if (r.group === '' && r.resource === 'pods') estimate = await estimatePods(namespace, deletedAt);
      const path = collectionPath(r, namespace);
      const options = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' };
      if (r.verbs.includes('deletecollection')) {
        const d = await client.request('DELETE', path, options);
        if (d.status >= 400 && d.status !== 404 && d.status !== 405) throw Object.assign(new ApiError(d.status, d.body), { estimate });
      } else {
        const l = await client.request('GET', path);
        for (const item of (l.body?.items ?? []) as KubeObject[]) {
          const d = await client.request('DELETE', `${path}/${encodeURIComponent(item.metadata!.name!)}`, options);
          if (d.status >= 400 && d.status !== 404) throw Object.assign(new ApiError(d.status, d.body), { estimate });
        }
      }
      const l = await client.request('GET', path);
      if (l.status !== 200) throw Object.assign(new ApiError(l.status, l.body), { estimate });
      const items = (l.body.items ?? []) as KubeObject[];
      const finalizers = new Map<string, number>();
      for (const it of items) for (const f of it.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      if (items.length === 0) return { estimate, remaining: 0, finalizers };
      if (estimate !== 0) return { estimate, remaining: items.length, finalizers };
      if (finalizers.size > 0) return { estimate: FINALIZER_ESTIMATE_SECONDS, remaining: items.length, finalizers };
      throw Object.assign(new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(r)}`), { estimate, remaining: items.length });
    }

    /** The longest termination grace period of the namespace's running pods, unless it has passed already. */
    async function estimatePods(namespace: string, deletedAt: number): Promise<number> {
      const l = await client.request('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`);
      let estimate = 0;
      for (const p of (l.body?.items ?? []) as KubeObject[]) {
        const phase = (p.status as { phase?: string } | undefined)?.phase;
        if (phase === 'Succeeded' || phase === 'Failed') continue;
        const grace = (p.spec as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds;
        if (typeof grace === 'number' && grace > estimate) estimate = grace;
      }
      if (env.clock.now() - deletedAt >= estimate * 1000) estimate = 0;
      return estimate;
    }

    return { name: 'namespace-controller' };
  },
};
