// The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation): a ClusterRole with an
// aggregationRule gets the rules of every ClusterRole its selectors match (by name order, duplicates
// dropped), applied server-side as `clusterrole-aggregation-controller` with its own service account.
// It follows every ClusterRole write and works from stored state at start.

import type { Env } from '../env.js';
import type { KubeObject } from '../object.js';
import { resourcePrefix } from '../registry/keys.js';
import type { ClusterState } from '../registry/state.js';
import { selectorMatches } from '../resources/common/labels.js';
import type { InternalClient } from './client.js';

const PREFIX = resourcePrefix('rbac.authorization.k8s.io', 'clusterroles');
export const AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';

export interface Controller {
  stop(): void;
}

function aggregatedRules(role: KubeObject, all: KubeObject[]): unknown[] {
  const selectors = ((role.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors ?? []).filter((s) => s !== null);
  const chosen = new Map<string, KubeObject>();
  for (const sel of selectors) {
    for (const other of all) {
      if (selectorMatches(sel, other.metadata?.labels ?? {})) chosen.set(other.metadata!.name!, other);
    }
  }
  const rules: unknown[] = [];
  const seen = new Set<string>();
  for (const name of [...chosen.keys()].sort()) {
    if (name === role.metadata?.name) continue;
    for (const rule of (chosen.get(name)!.rules as unknown[] | undefined) ?? []) {
      const key = JSON.stringify(rule);
      if (seen.has(key)) continue;
      seen.add(key);
      rules.push(rule);
    }
  }
  return rules;
}

/** One pass over every aggregated ClusterRole; true when something was written. */
export async function aggregateOnce(state: ClusterState, client: InternalClient, stopped: () => boolean = () => false): Promise<boolean> {
  let changed = false;
  for (const role of state.list(PREFIX).map((s) => s.object)) {
    if (stopped()) break;
    if (!role.aggregationRule) continue;
    const rules = aggregatedRules(role, state.list(PREFIX).map((s) => s.object));
    if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) continue;
    changed = true;
    await client.call(
      'PATCH',
      `/apis/rbac.authorization.k8s.io/v1/clusterroles/${encodeURIComponent(role.metadata!.name!)}?fieldManager=${AGGREGATION_FIELD_MANAGER}&force=true`,
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: role.metadata!.name }, rules },
      'application/apply-patch+yaml',
    );
  }
  return changed;
}

/** The controller's one entry: follows ClusterRole writes on the injected timers until stopped. */
export function startClusterRoleAggregation(state: ClusterState, env: Env, client: InternalClient): Controller {
  let pending: unknown;
  let running = false;
  let again = false;
  let stopped = false;

  const sync = async () => {
    pending = undefined;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await aggregateOnce(state, client, () => stopped);
    } catch {
      // retried on the next ClusterRole write
    } finally {
      running = false;
      if (again && !stopped) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    if (pending === undefined && !stopped) pending = env.timers.setTimeout(() => void sync(), 0);
  };
  const unsubscribe = state.subscribe((events) => {
    if (events.some((e) => e.key.startsWith(PREFIX))) schedule();
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
