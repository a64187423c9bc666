// The RBAC post-start hook (bootstrappolicy + reconciliation): at every start, bootstrap ClusterRoles and
// ClusterRoleBindings that are missing are created; existing ones are reconciled unless annotated
// `rbac.authorization.kubernetes.io/autoupdate: "false"`: missing labels, annotations, rules, aggregation
// selectors and subjects are added (nothing is removed), and a binding whose roleRef changed is recreated.

import type { KubeObject } from '../object.js';
import { objectKey } from '../registry/keys.js';
import type { ClusterState } from '../registry/state.js';
import type { PolicyRule } from './attributes.js';
import { AUTOUPDATE_ANNOTATION, BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_LABELS, type BootstrapBinding, type BootstrapClusterRole } from './bootstrap-policy.js';
import type { InternalClient } from './client.js';
import { covers, rulesOf } from './rbac.js';

const GROUP = 'rbac.authorization.k8s.io';
const BASE = `/apis/${GROUP}/v1`;

function expectedRole(role: BootstrapClusterRole): KubeObject {
  const o: KubeObject = {
    apiVersion: `${GROUP}/v1`,
    kind: 'ClusterRole',
    metadata: { name: role.name, labels: { ...BOOTSTRAP_LABELS, ...(role.labels ?? {}) }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } },
  };
  if (role.aggregateFrom) o.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [role.aggregateFrom]: 'true' } }] };
  if (role.rules) o.rules = role.rules;
  return o;
}

function expectedBinding(b: BootstrapBinding): KubeObject {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: b.name, labels: { ...BOOTSTRAP_LABELS }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } },
    roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: b.role },
    subjects: b.subjects.map((s) => (s.kind === 'ServiceAccount' ? { kind: s.kind, name: s.name, namespace: s.namespace } : { apiGroup: GROUP, kind: s.kind, name: s.name })),
  };
}

/** Adds the expected map entries that are missing; true when something changed. */
function mergeMissing(target: Record<string, string>, expected: Record<string, string>): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(expected)) {
    if (!(k in target)) {
      target[k] = v;
      changed = true;
    }
  }
  return changed;
}

function reconciledRole(existing: KubeObject, expected: KubeObject): KubeObject | undefined {
  const out = JSON.parse(JSON.stringify(existing)) as KubeObject;
  const meta = out.metadata!;
  let changed = mergeMissing((meta.labels ??= {}), expected.metadata!.labels!);
  changed = mergeMissing((meta.annotations ??= {}), expected.metadata!.annotations!) || changed;
  const expectedAgg = (expected.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors;
  if (expectedAgg) {
    const agg = ((out.aggregationRule ??= {}) as { clusterRoleSelectors?: unknown[] });
    const have = agg.clusterRoleSelectors ?? [];
    for (const sel of expectedAgg) {
      if (!have.some((h) => JSON.stringify(h) === JSON.stringify(sel))) {
        have.push(sel);
        changed = true;
      }
    }
    agg.clusterRoleSelectors = have;
  }
  const missing = covers(rulesOf(existing), (expected.rules ?? []) as PolicyRule[]).missing;
  if (missing.length) {
    out.rules = [...((out.rules as unknown[]) ?? []), ...missing];
    changed = true;
  }
  return changed ? out : undefined;
}

export async function reconcileBootstrapPolicy(state: ClusterState, client: InternalClient): Promise<void> {
  for (const role of BOOTSTRAP_CLUSTER_ROLES) {
    const expected = expectedRole(role);
    const existing = state.get(objectKey(GROUP, 'clusterroles', '', role.name))?.object;
    if (!existing) {
      await client.call('POST', `${BASE}/clusterroles`, expected);
      continue;
    }
    if (existing.metadata?.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') continue;
    const next = reconciledRole(existing, expected);
    if (next) await client.call('PUT', `${BASE}/clusterroles/${encodeURIComponent(role.name)}`, { ...next, apiVersion: `${GROUP}/v1`, kind: 'ClusterRole' });
  }
  for (const binding of BOOTSTRAP_CLUSTER_ROLE_BINDINGS) {
    const expected = expectedBinding(binding);
    const path = `${BASE}/clusterrolebindings/${encodeURIComponent(binding.name)}`;
    const existing = state.get(objectKey(GROUP, 'clusterrolebindings', '', binding.name))?.object;
    if (!existing) {
      await client.call('POST', `${BASE}/clusterrolebindings`, expected);
      continue;
    }
    if (existing.metadata?.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') continue;
    if (JSON.stringify(existing.roleRef) !== JSON.stringify(expected.roleRef)) {
      // a roleRef cannot change: the binding is deleted and created again
      await client.call('DELETE', path);
      await client.call('POST', `${BASE}/clusterrolebindings`, expected);
      continue;
    }
    const out = JSON.parse(JSON.stringify(existing)) as KubeObject;
    const meta = out.metadata!;
    let changed = mergeMissing((meta.labels ??= {}), expected.metadata!.labels!);
    changed = mergeMissing((meta.annotations ??= {}), expected.metadata!.annotations!) || changed;
    const subjects = (Array.isArray(out.subjects) ? out.subjects : []) as { kind?: string; name?: string; namespace?: string }[];
    for (const s of expected.subjects as { kind: string; name: string; namespace?: string }[]) {
      if (!subjects.some((h) => h.kind === s.kind && h.name === s.name && (h.namespace ?? '') === (s.namespace ?? ''))) {
        subjects.push(s);
        changed = true;
      }
    }
    out.subjects = subjects;
    if (changed) await client.call('PUT', path, { ...out, apiVersion: `${GROUP}/v1`, kind: 'ClusterRoleBinding' });
  }
}
