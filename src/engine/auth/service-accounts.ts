// The service-account controller (pkg/controller/serviceaccount): every active namespace has a `default`
// ServiceAccount; it is created when a namespace appears and again when it is deleted. The controller is
// an API client with its own service account, working from stored state at start.

import type { Env } from '../env.js';
import { objectKey, resourcePrefix } from '../registry/keys.js';
import type { ClusterState } from '../registry/state.js';
import type { Controller } from './aggregation.js';
import type { InternalClient } from './client.js';

const NAMESPACES = resourcePrefix('', 'namespaces');
const SERVICE_ACCOUNTS = resourcePrefix('', 'serviceaccounts');

/** One pass: creates the missing `default` service accounts. */
export async function ensureDefaultServiceAccounts(state: ClusterState, client: InternalClient, stopped: () => boolean = () => false): Promise<void> {
  for (const ns of state.list(NAMESPACES).map((s) => s.object)) {
    if (stopped()) return;
    const name = ns.metadata?.name ?? '';
    if (!name || ns.metadata?.deletionTimestamp) continue;
    if (state.get(objectKey('', 'serviceaccounts', name, 'default'))) continue;
    await client.call('POST', `/api/v1/namespaces/${encodeURIComponent(name)}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  }
}

export function startServiceAccountController(state: ClusterState, env: Env, client: InternalClient): Controller {
  let pending: unknown;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (pending !== undefined || stopped) return;
    pending = env.timers.setTimeout(() => {
      pending = undefined;
      running = running.then(() => ensureDefaultServiceAccounts(state, client, () => stopped)).catch(() => undefined);
    }, 0);
  };
  const unsubscribe = state.subscribe((events) => {
    if (events.some((e) => (e.key.startsWith(NAMESPACES) && e.type !== 'DELETED') || (e.key.startsWith(SERVICE_ACCOUNTS) && e.type === 'DELETED'))) schedule();
  });
  schedule();
  return {
    stop() {
      stopped = true;
      unsubscribe();
      if (pending !== undefined) env.timers.clearTimeout(pending);
    },
  };
}
