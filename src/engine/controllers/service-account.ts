// The service-account controller (pkg/controller/serviceaccount): every active namespace has a `default`
// ServiceAccount; it is created when a namespace appears and again when it is deleted. It runs as the
// service account `service-account-controller`, follows namespaces and service accounts through
// informers and so works from stored state at start.

import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';

const NAMESPACES = '/api/v1/namespaces';
const SERVICE_ACCOUNTS = '/api/v1/serviceaccounts';
const DEFAULT = 'default';

export const serviceAccountController: ControllerSpec = {
  serviceAccount: 'service-account-controller',
  start(ctx) {
    const nsName = (o: KubeObject) => String(o.metadata?.name ?? '');
    const namespaces = ctx.informer(NAMESPACES, {
      add: (o) => queue.add(nsName(o)),
      update: (_, o) => queue.add(nsName(o)),
    });
    const accounts = ctx.informer(SERVICE_ACCOUNTS, {
      delete: (o) => {
        if (o.metadata?.name === DEFAULT && o.metadata.namespace) queue.add(o.metadata.namespace);
      },
    });
    const queue = ctx.queue<string>(async (ns) => {
      await Promise.all([namespaces.synced, accounts.synced]);
      const namespace = namespaces.store.get(ns);
      if (!namespace || namespace.metadata?.deletionTimestamp || (namespace.status as { phase?: string } | undefined)?.phase === 'Terminating') return;
      if (accounts.store.has(`${ns}/${DEFAULT}`)) return;
      const r = await ctx.client.request('POST', `${NAMESPACES}/${encodeURIComponent(ns)}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT } });
      // already there (the informer has not seen it yet), or the namespace went away or is terminating
      if (r.status < 400 || r.status === 409 || r.status === 404 || (r.status === 403 && r.body?.details?.causes?.some((c: { reason?: string }) => c.reason === 'NamespaceTerminating'))) return;
      throw new Error(`creating the default service account of ${ns}: ${r.status}`);
    });
    return { name: 'service-account-controller' };
  },
};
