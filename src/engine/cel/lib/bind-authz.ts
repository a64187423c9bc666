// Binds the authorizer library (all compatibility versions) and its selector functions (fieldSelector,
// labelSelector: compatibility 1.31, i.e. 1.32 in the spec's numbering, behind AuthorizeWithSelectors,
// which is on by default in 1.33). Costs: check() 350,000 (two checks per expression), builders 1,
// selectors by their length.

import type { CelLibrary, CelValue, CostEstimate, SizeEstimate } from '../library.js';
import { CelOpaque, T, actualSize } from '../library.js';
import * as Z from './authz.js';
import { STRING_TRAVERSAL, costAdd, mem, nominal } from './bind-util.js';

export const AUTHORIZER_TYPE = T.opaque('kubernetes.authorization.Authorizer');
export const PATH_CHECK_TYPE = T.opaque('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_TYPE = T.opaque('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = T.opaque('kubernetes.authorization.ResourceCheck');
export const DECISION_TYPE = T.opaque('kubernetes.authorization.Decision');

export class AuthzValue<V> extends CelOpaque {
  constructor(
    readonly celType: ReturnType<typeof T.opaque>,
    readonly v: V,
  ) {
    super();
  }
}

/** The `authorizer` variable value for a request's user (default authorizer: allow all). */
export function authorizerValue(user: Z.UserInfo, authorizer: Z.Authorizer = Z.allowAllAuthorizer): AuthzValue<Z.AuthorizerValue> {
  return new AuthzValue(AUTHORIZER_TYPE, Z.newAuthorizer(user, authorizer));
}

/** The `authorizer.requestResource` variable value: a resource check preset from the request. */
export function requestResourceValue(
  authz: AuthzValue<Z.AuthorizerValue>,
  r: { group: string; resource: string; subresource?: string; namespace?: string; name?: string },
): AuthzValue<Z.ResourceCheckValue> {
  return new AuthzValue(RESOURCE_CHECK_TYPE, Z.newResourceCheck(authz.v, r));
}

const un = <V>(v: CelValue) => (v as AuthzValue<V>).v;
const str = (v: CelValue) => v as string;
const checkCost = { cost: () => 350000, estimate: (): CostEstimate => ({ min: 350000, max: 350000 }) };

// selectorCostEstimate: list create (10) + length * 0.1 + (length * 0.5) * (10 + 40)
function selectorCost(len: SizeEstimate): CostEstimate {
  const times = (f: number) => ({ min: Math.ceil(len.min * f), max: Math.ceil(len.max * f) });
  const parse = times(STRING_TRAVERSAL);
  const reqs = times(0.5);
  const reqCost = { min: Math.ceil(reqs.min * 50), max: Math.ceil(reqs.max * 50) };
  return costAdd(costAdd({ min: 10, max: 10 }, parse), reqCost);
}
const selectorCosts = {
  cost: (a: CelValue[]) => {
    const n = actualSize(a[1]!);
    return selectorCost({ min: n, max: n }).max;
  },
  estimate: (s: SizeEstimate[]) => selectorCost(s[1]!),
};

export const authzLibrary: CelLibrary = {
  name: 'kubernetes.authz',
  types: [AUTHORIZER_TYPE, PATH_CHECK_TYPE, GROUP_CHECK_TYPE, RESOURCE_CHECK_TYPE, DECISION_TYPE],
  functions: [
    {
      name: 'path',
      overloads: [
        mem('authorizer_path', [AUTHORIZER_TYPE, T.string], PATH_CHECK_TYPE, (a, p) => new AuthzValue(PATH_CHECK_TYPE, Z.path(un(a), str(p))), nominal),
      ],
    },
    {
      name: 'group',
      overloads: [
        mem('authorizer_group', [AUTHORIZER_TYPE, T.string], GROUP_CHECK_TYPE, (a, g) => new AuthzValue(GROUP_CHECK_TYPE, Z.group(un(a), str(g))), nominal),
      ],
    },
    {
      name: 'serviceAccount',
      overloads: [
        mem(
          'authorizer_serviceaccount',
          [AUTHORIZER_TYPE, T.string, T.string],
          AUTHORIZER_TYPE,
          (a, ns, n) => new AuthzValue(AUTHORIZER_TYPE, Z.serviceAccount(un(a), str(ns), str(n))),
          nominal,
        ),
      ],
    },
    {
      name: 'resource',
      overloads: [
        mem('groupcheck_resource', [GROUP_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, (g, r) => new AuthzValue(RESOURCE_CHECK_TYPE, Z.resource(un(g), str(r))), nominal),
      ],
    },
    {
      name: 'subresource',
      overloads: [
        mem('resourcecheck_subresource', [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, (r, s) => new AuthzValue(RESOURCE_CHECK_TYPE, Z.subresource(un(r), str(s))), nominal),
      ],
    },
    {
      name: 'namespace',
      overloads: [
        mem('resourcecheck_namespace', [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, (r, s) => new AuthzValue(RESOURCE_CHECK_TYPE, Z.namespace(un(r), str(s))), nominal),
      ],
    },
    {
      name: 'name',
      overloads: [
        mem('resourcecheck_name', [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, (r, s) => new AuthzValue(RESOURCE_CHECK_TYPE, Z.name(un(r), str(s))), nominal),
      ],
    },
    {
      name: 'check',
      overloads: [
        mem('pathcheck_check', [PATH_CHECK_TYPE, T.string], DECISION_TYPE, (p, v) => new AuthzValue(DECISION_TYPE, Z.checkPath(un(p), str(v))), checkCost),
        mem('resourcecheck_check', [RESOURCE_CHECK_TYPE, T.string], DECISION_TYPE, (r, v) => new AuthzValue(DECISION_TYPE, Z.checkResource(un(r), str(v))), checkCost),
      ],
    },
    { name: 'errored', overloads: [mem('decision_errored', [DECISION_TYPE], T.bool, (d) => Z.errored(un(d)), nominal)] },
    { name: 'error', overloads: [mem('decision_error', [DECISION_TYPE], T.string, (d) => Z.error(un(d)), nominal)] },
    { name: 'allowed', overloads: [mem('decision_allowed', [DECISION_TYPE], T.bool, (d) => Z.allowed(un(d)), nominal)] },
    { name: 'reason', overloads: [mem('decision_reason', [DECISION_TYPE], T.string, (d) => Z.reason(un(d)), nominal)] },
  ],
};

export const authzSelectorsLibrary: CelLibrary = {
  name: 'kubernetes.authzSelectors',
  minVersion: '1.32',
  types: [RESOURCE_CHECK_TYPE],
  functions: [
    {
      name: 'fieldSelector',
      overloads: [
        mem('authorizer_fieldselector', [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, (r, s) => new AuthzValue(RESOURCE_CHECK_TYPE, Z.fieldSelector(un(r), str(s))), selectorCosts),
      ],
    },
    {
      name: 'labelSelector',
      overloads: [
        mem('authorizer_labelselector', [RESOURCE_CHECK_TYPE, T.string], RESOURCE_CHECK_TYPE, (r, s) => new AuthzValue(RESOURCE_CHECK_TYPE, Z.labelSelector(un(r), str(s))), selectorCosts),
      ],
    },
  ],
};
