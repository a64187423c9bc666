// Escalation prevention of the RBAC registries (pkg/registry/rbac/{role,clusterrole,rolebinding,
// clusterrolebinding}/policybased): a user may create or change a role only with every permission it
// grants (or the `escalate` verb), and bind a role only when holding its permissions (or the `bind` verb);
// members of system:masters always may. The guard wraps the resource's strategy for one request.

import { goQuote } from '../codec/go-format.js';
import { notFound, type StatusError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { ResourceRequestInfo } from '../endpoints/request-info.js';
import { resourceAttributes, type PolicyRule } from './attributes.js';
import { forbiddenStatus, type ClusterAuthorizer } from './authorize.js';
import { aggregate, compactRules, compactString, covers, goStrings, rulesOf } from './rbac.js';
import { SYSTEM_MASTERS, type UserInfo } from './user.js';

const GROUP = 'rbac.authorization.k8s.io';
const FULL_AUTHORITY: PolicyRule[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }];

/** ConfirmNoEscalation: the requester's own rules (in the request's namespace) must cover `rules`. */
export function confirmNoEscalation(authz: ClusterAuthorizer, user: UserInfo, namespace: string, rules: PolicyRule[]): string | undefined {
  const owner = authz.rbac.policyRulesFor(user, namespace);
  const { covered, missing } = covers(owner.rules, rules);
  if (covered) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.name)} (groups=${goStrings(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  // the registries' rule resolver reads through the stores: their NotFound names the plural resource
  const errors = owner.errors.map((e) => e.replace(/^(cluster)?role\.rbac\.authorization\.k8s\.io /, (m) => m.replace('role.', 'roles.')));
  if (errors.length) msg += `; resolution errors: [${aggregate(errors)}]`;
  return msg;
}

/** rbacregistry.IsOnlyMutatingGCFields: only ownerReferences / finalizers differ. */
function onlyGCFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, resourceVersion: _r, ...meta } = o.metadata ?? {};
    return JSON.stringify({ ...o, metadata: meta });
  };
  return strip(obj) === strip(old);
}

function hasAggregationRule(o: KubeObject | undefined): boolean {
  const sel = (o?.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors;
  return Array.isArray(sel) && sel.length > 0;
}

/** Per request: the RBAC kinds' strategies with the escalation checks for this user. */
export function guardEscalation(def: ResourceDefinition, info: ResourceRequestInfo, user: UserInfo, authz: ClusterAuthorizer): ResourceDefinition {
  if (def.group !== GROUP || info.subresource) return def;
  // EscalationAllowed: system:masters may do anything
  if (user.groups.includes(SYSTEM_MASTERS)) return def;
  const namespace = info.namespace;
  const forbid = (name: string | undefined, message: string): StatusError => forbiddenStatus(GROUP, def.plural, name ?? '', message);

  if (def.plural === 'roles' || def.plural === 'clusterroles') {
    // RoleEscalationAuthorized: the `escalate` verb on the role resource
    const escalate = authz.authorize(resourceAttributes(user, { verb: 'escalate', apiGroup: GROUP, apiVersion: '*', resource: def.plural, name: info.name, namespace }));
    if (escalate.decision === 'allow') return def;
    const check = (obj: KubeObject, old: KubeObject | undefined) => {
      if (old && onlyGCFields(obj, old)) return;
      const err = confirmNoEscalation(authz, user, namespace, rulesOf(obj));
      if (err) throw forbid(obj.metadata?.name, err);
      // an aggregationRule can gather anything: it needs * on *.*
      if (def.plural === 'clusterroles' && hasAggregationRule(obj) && JSON.stringify(obj.aggregationRule) !== JSON.stringify(old?.aggregationRule)) {
        if (confirmNoEscalation(authz, user, namespace, FULL_AUTHORITY)) throw forbid(obj.metadata?.name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    };
    return withChecks(def, check);
  }

  if (def.plural === 'rolebindings' || def.plural === 'clusterrolebindings') {
    const check = (obj: KubeObject, old: KubeObject | undefined) => {
      if (old && onlyGCFields(obj, old)) return;
      const ref = (obj.roleRef ?? {}) as { kind?: string; name?: string; apiGroup?: string };
      // BindingAuthorized: the `bind` verb on the referenced role
      if (ref.kind === 'Role' || ref.kind === 'ClusterRole') {
        const bind = authz.authorize(resourceAttributes(user, {
          verb: 'bind', apiGroup: ref.apiGroup ?? '', resource: ref.kind === 'Role' ? 'roles' : 'clusterroles', name: ref.name ?? '', namespace,
        }));
        if (bind.decision === 'allow') return;
      }
      const resolved = authz.rbac.roleReferenceRules(ref, namespace);
      if (resolved.error !== undefined) {
        // the registries' getter answers the store's NotFound
        if (ref.kind === 'Role') throw notFound({ group: GROUP, resource: 'roles' }, ref.name ?? '');
        if (ref.kind === 'ClusterRole') throw notFound({ group: GROUP, resource: 'clusterroles' }, ref.name ?? '');
        throw forbid(obj.metadata?.name, resolved.error);
      }
      const err = confirmNoEscalation(authz, user, namespace, resolved.rules);
      if (err) throw forbid(obj.metadata?.name, err);
    };
    return withChecks(def, check);
  }
  return def;
}

function withChecks(def: ResourceDefinition, check: (obj: KubeObject, old: KubeObject | undefined) => void): ResourceDefinition {
  const base = def.strategy;
  return {
    ...def,
    strategy: {
      ...base,
      prepareForCreate(obj, ctx) {
        check(obj, undefined);
        base.prepareForCreate?.(obj, ctx);
      },
      prepareForUpdate(obj, old, ctx) {
        if (ctx.subresource === '') check(obj, old);
        base.prepareForUpdate?.(obj, old, ctx);
      },
    },
  };
}
