// The resource quota controller (pkg/controller/resourcequota): keeps every ResourceQuota's status.hard equal
// to spec.hard and status.used equal to what the namespace holds, as the real controller does. A quota is
// synced when it appears or its spec changes, when an object it counts is deleted or changes its usage (the
// quota monitor's replenishment, through an informer per counted kind, started as quotas name kinds), and
// every five minutes (the default --resource-quota-sync-period). Runs as resourcequota-controller.

import type { KubeObject } from '../object.js';
import { o, str } from '../resources/common/printers.js';
import {
  formatUsage, kindOfResourceName, objectUsage, quotaIgnores, quotaMatches, type Usage,
} from '../resources/common/quota.js';
import type { Informer } from './informer.js';
import type { ControllerSpec } from './manager.js';

const QUOTAS = '/api/v1/resourcequotas';
const RESYNC_MS = 5 * 60 * 1000;

const sorted = (m: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));

function sameUsage(x: Usage, y: Usage): boolean {
  if (x.size !== y.size) return false;
  for (const [k, v] of x) if (y.get(k) !== v) return false;
  return true;
}

export const resourceQuotaController: ControllerSpec = {
  serviceAccount: 'resourcequota-controller',
  start(ctx) {
    const keyOf = (q: KubeObject) => `${q.metadata?.namespace ?? ''}/${q.metadata?.name ?? ''}`;
    const quotas = ctx.informer(QUOTAS, {
      add: (q) => queue.add(keyOf(q)),
      update: (prev, q) => {
        if (JSON.stringify(o(prev.spec)) !== JSON.stringify(o(q.spec)) || JSON.stringify(o(o(q.status).hard)) !== JSON.stringify(o(o(q.spec).hard))) queue.add(keyOf(q));
      },
    });
    /**
     * Informers of the counted kinds, by "group/plural" (null: a kind the server does not serve). A quota
     * waiting for one to list syncs again once it has.
     */
    const monitors = new Map<string, { informer: Informer | null; ready: boolean; waiting: Set<string> }>();
    let served: Promise<Map<string, string>> | undefined;
    const collectionPaths = (): Promise<Map<string, string>> => {
      served ??= ctx.discovery().then((all) => {
        const m = new Map<string, string>();
        for (const r of all) {
          if (!r.preferred || r.resource.includes('/') || !r.namespaced || !r.verbs.includes('list') || !r.verbs.includes('watch')) continue;
          m.set(`${r.group}/${r.resource}`, r.group ? `/apis/${r.group}/${r.version}/${r.resource}` : `/api/${r.version}/${r.resource}`);
        }
        return m;
      });
      served.catch(() => (served = undefined));
      return served;
    };
    /** Replenishment: quotas of the namespace that count this kind sync again. */
    const replenish = (group: string, plural: string, obj: KubeObject) => {
      const ns = obj.metadata?.namespace ?? '';
      for (const q of quotas.store.values()) {
        if (q.metadata?.namespace !== ns) continue;
        if (Object.keys(o(o(q.spec).hard)).some((n) => { const k = kindOfResourceName(n); return k?.group === group && k.plural === plural; })) queue.add(keyOf(q));
      }
    };
    const monitor = (group: string, plural: string, path: string | undefined) => {
      const id = `${group}/${plural}`;
      let m = monitors.get(id);
      if (m) return m;
      if (quotaIgnores(group, plural)) {
        m = { informer: null, ready: true, waiting: new Set() };
        monitors.set(id, m);
        return m;
      }
      // a kind not served (yet: a CRD may come): nothing to count now, discovery is asked again next time
      if (!path) {
        served = undefined;
        return { informer: null, ready: true, waiting: new Set<string>() };
      }
      const entry: { informer: Informer | null; ready: boolean; waiting: Set<string> } = { informer: null, ready: false, waiting: new Set() };
      entry.informer = ctx.informer(path, {
        delete: (obj) => replenish(group, plural, obj),
        update: (prev, obj) => {
          const now = ctx.env.clock.now();
          if (!sameUsage(objectUsage(group, plural, prev, now), objectUsage(group, plural, obj, now))) replenish(group, plural, obj);
        },
      });
      void entry.informer.synced.then(() => {
        entry.ready = true;
        for (const k of entry.waiting) queue.add(k);
        entry.waiting.clear();
      });
      monitors.set(id, entry);
      return entry;
    };

    const queue = ctx.queue<string>(async (key) => {
      await quotas.synced;
      const q = quotas.store.get(key);
      if (!q) return;
      const [ns, name] = key.split('/');
      const hard = o(o(q.spec).hard);
      const names = Object.keys(hard);
      const used: Record<string, unknown> = { ...o(o(q.status).used) };
      const kinds = new Map<string, { group: string; plural: string; names: string[] }>();
      for (const n of names) {
        const k = kindOfResourceName(n);
        if (!k) continue;
        const id = `${k.group}/${k.plural}`;
        if (!kinds.has(id)) kinds.set(id, { ...k, names: [] });
        kinds.get(id)!.names.push(n);
      }
      const paths = await collectionPaths();
      const counters = [...kinds.values()].map((k) => ({ ...k, m: monitor(k.group, k.plural, paths.get(`${k.group}/${k.plural}`)) }));
      const pending = counters.filter((k) => !k.m.ready);
      if (pending.length) {
        for (const k of pending) k.m.waiting.add(key);
        return;
      }
      const now = ctx.env.clock.now();
      for (const { group, plural, names: counted, m } of counters) {
        const inf = m.informer;
        if (!inf) continue;
        const total: Usage = new Map(counted.map((n) => [n, 0n]));
        for (const obj of inf.store.values()) {
          if (obj.metadata?.namespace !== ns || !quotaMatches(q, group, plural, obj, names)) continue;
          for (const [k, v] of objectUsage(group, plural, obj, now)) if (total.has(k)) total.set(k, total.get(k)! + v);
        }
        for (const [k, v] of total) used[k] = formatUsage(v, hard[k]);
      }
      for (const k of Object.keys(used)) if (!(k in hard)) delete used[k];
      const status = { hard: sorted(hard), used: sorted(used) };
      queue.addAfter(key, RESYNC_MS);
      if (JSON.stringify(o(q.status)) === JSON.stringify(status)) return;
      const r = await ctx.client.request('PUT', `/api/v1/namespaces/${encodeURIComponent(ns)}/resourcequotas/${encodeURIComponent(name)}/status`, { ...q, status });
      if (r.status === 404) return;
      // a conflict: the informer brings the newer quota (and its charge) and the key runs again
      if (r.status >= 400) throw new Error(`syncing resource quota ${key}: ${r.status} ${str(r.body?.message)}`);
    });
    return { name: 'resourcequota-controller' };
  },
};
