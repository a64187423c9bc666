// The ValidatingAdmissionPolicy status controller (pkg/controller/validatingadmissionpolicystatus): when a
// policy's generation is ahead of status.observedGeneration it type-checks the policy (admission/policy
// typecheck.ts) against the schemas the API serves (OpenAPI v3, as the real controller's schema resolver
// reads them; kinds through discovery) and applies status.observedGeneration and status.typeChecking
// server-side, forced, with the field manager `validatingadmissionpolicy-status-controller`.

import type { KubeObject } from '../object.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import { typeCheckPolicy, type TypeCheckResolver } from '../admission/policy/typecheck.js';
import type { GVK } from '../admission/policy/matching.js';
import type { ControllerContext, ControllerSpec } from './manager.js';

const POLICIES = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
export const VAP_STATUS_CONTROLLER = 'validatingadmissionpolicy-status-controller';

type Obj = Record<string, unknown>;

/** OpenAPI v3 refs (`#/components/schemas/<name>`) as the schema registry's plain names. */
function plainRefs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plainRefs);
  if (!v || typeof v !== 'object') return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v as Obj)) out[k] = k === '$ref' && typeof x === 'string' ? x.replace(/^#\/components\/schemas\//, '') : plainRefs(x);
  return out;
}

/** A resolver over discovery and the OpenAPI v3 documents of the group versions asked about. */
async function resolver(ctx: ControllerContext, policy: KubeObject): Promise<TypeCheckResolver> {
  const discovered = await ctx.discovery();
  const docs = new Map<string, SchemaRegistry | undefined>();
  const gvPath = (g: string, v: string) => (g ? `apis/${g}/${v}` : `api/${v}`);
  const wanted = new Set<string>();
  const spec = (policy.spec ?? {}) as Obj;
  const pk = spec.paramKind as Obj | undefined;
  if (pk && typeof pk.apiVersion === 'string') wanted.add(pk.apiVersion.includes('/') ? `apis/${pk.apiVersion}` : `api/${pk.apiVersion}`);
  for (const rule of ((spec.matchConstraints as Obj | undefined)?.resourceRules as Obj[] | undefined) ?? []) {
    for (const g of (rule.apiGroups as string[] | undefined) ?? []) for (const v of (rule.apiVersions as string[] | undefined) ?? []) if (!g.includes('*') && !v.includes('*')) wanted.add(gvPath(g, v));
  }
  for (const path of wanted) {
    const r = await ctx.client.request<{ components?: { schemas?: Record<string, Schema> } }>('GET', `/openapi/v3/${path}`);
    docs.set(path, r.status === 200 ? (plainRefs(r.body.components?.schemas ?? {}) as SchemaRegistry) : undefined);
  }
  return {
    kindsFor: (gvr) => discovered.filter((d) => d.group === gvr.group && d.version === gvr.version && d.resource === gvr.resource).map((d) => ({ group: d.group, version: d.version, kind: d.kind })),
    schemaFor: (gvk: GVK) => {
      const defs = docs.get(gvPath(gvk.group, gvk.version));
      if (!defs) return undefined;
      for (const [name, s] of Object.entries(defs)) {
        const kinds = (s as Obj)['x-kubernetes-group-version-kind'] as GVK[] | undefined;
        if (kinds?.some((k) => (k.group ?? '') === gvk.group && k.version === gvk.version && k.kind === gvk.kind)) return { schema: { $ref: name } as Schema, definitions: defs };
      }
      return undefined;
    },
  };
}

export const validatingAdmissionPolicyStatusController: ControllerSpec = {
  serviceAccount: VAP_STATUS_CONTROLLER,
  start(ctx) {
    const queue = ctx.queue<string>(async (name) => {
      await policies.synced;
      const policy = policies.store.get(name);
      if (!policy) return;
      const generation = policy.metadata?.generation ?? 0;
      const observed = Number(((policy.status ?? {}) as Obj).observedGeneration ?? 0);
      if (generation <= observed) return;
      const warnings = typeCheckPolicy(policy, await resolver(ctx, policy));
      await ctx.client.must(
        'PATCH',
        `${POLICIES}/${encodeURIComponent(name)}/status?fieldManager=${VAP_STATUS_CONTROLLER}&force=true`,
        {
          apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name },
          status: { observedGeneration: generation, typeChecking: warnings.length ? { expressionWarnings: warnings } : {} },
        },
        'application/apply-patch+yaml',
      );
    });
    const enqueue = (o: KubeObject) => queue.add(o.metadata?.name ?? '');
    const policies = ctx.informer(POLICIES, { add: enqueue, update: (_old, o) => enqueue(o) });
    return { name: VAP_STATUS_CONTROLLER };
  },
};
