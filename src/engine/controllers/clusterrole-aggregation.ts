// The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation): a ClusterRole with an
// aggregationRule gets the rules of every ClusterRole its selectors match (by name order, duplicates
// dropped), applied server-side with the field manager `clusterrole-aggregation-controller`. It runs as the
// service account of that name, follows ClusterRoles through an informer (any change looks at every
// aggregated role again) and so works from stored state at start.

import type { KubeObject } from '../object.js';
import { selectorMatches } from '../resources/common/labels.js';
import type { ControllerSpec } from './manager.js';

const CLUSTER_ROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
export const AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';

/** The rules an aggregated role should hold, given every ClusterRole. */
export function aggregatedRules(role: KubeObject, all: Iterable<KubeObject>): unknown[] {
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

export const clusterRoleAggregationController: ControllerSpec = {
  serviceAccount: 'clusterrole-aggregation-controller',
  start(ctx) {
    const roles = ctx.informer(CLUSTER_ROLES, {
      add: () => enqueueAggregated(),
      update: () => enqueueAggregated(),
      delete: () => enqueueAggregated(),
    });
    const queue = ctx.queue<string>(async (name) => {
      await roles.synced;
      const role = roles.store.get(name);
      if (!role?.aggregationRule) return;
      const rules = aggregatedRules(role, roles.store.values());
      if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) return;
      await ctx.client.must(
        'PATCH',
        `${CLUSTER_ROLES}/${encodeURIComponent(name)}?fieldManager=${AGGREGATION_FIELD_MANAGER}&force=true`,
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules },
        'application/apply-patch+yaml',
      );
    });
    // as the real controller: any ClusterRole change may change what an aggregated role selects
    function enqueueAggregated(): void {
      for (const [name, role] of roles.store) if (role.aggregationRule) queue.add(name);
    }
    return { name: 'clusterrole-aggregation-controller' };
  },
};
