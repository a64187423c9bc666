// The CEL environment of admission policies [K8S admission/plugin/cel compile.go, composition.go]: the
// variables `object`, `oldObject` (dyn), `request` (kubernetes.AdmissionRequest), `namespaceObject`
// (kubernetes.Namespace), `params` (when the policy has a paramKind), `authorizer` and
// `authorizer.requestResource` (validations, variables, matchConditions, auditAnnotations; not in
// messageExpression), and `variables` (the policy's composited variables, typed as each compiled).

import { createCelEnv, isCompileError, T, typeName, type CelEnv, type CelProgram, type CelType } from '../../cel/index.js';
import { AUTHORIZER_TYPE, RESOURCE_CHECK_TYPE } from '../../cel/lib/index.js';
import type { ObjectType } from '../../cel/types.js';
import { typeEquals } from '../../cel/types.js';

/** Per-expression runtime cost limit (celconfig.PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;
/** Runtime cost budget of one binding's evaluation (celconfig.RuntimeCELCostBudget). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** Runtime cost budget of a policy's matchConditions (celconfig.RuntimeCELCostBudgetMatchConditions). */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;
/** Longest message a messageExpression may produce (celconfig.MaxEvaluatedMessageExpressionSizeBytes). */
export const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

/** An object type with a fixed (or growing) set of fields. */
export function objectType(name: string, fields: Map<string, CelType> | Record<string, CelType>): ObjectType {
  const m = fields instanceof Map ? fields : new Map(Object.entries(fields));
  return { kind: 'object', name, field: (n) => m.get(n), fieldNames: () => [...m.keys()] };
}

const GVK = objectType('kubernetes.GroupVersionKind', { group: T.string, version: T.string, kind: T.string });
const GVR = objectType('kubernetes.GroupVersionResource', { group: T.string, version: T.string, resource: T.string });
const USER_INFO = objectType('kubernetes.UserInfo', {
  username: T.string, uid: T.string, groups: T.list(T.string), extra: T.map(T.string, T.list(T.string)),
});

/** plugin/cel BuildRequestType. */
export const REQUEST_TYPE = objectType('kubernetes.AdmissionRequest', {
  kind: GVK, resource: GVR, subResource: T.string, requestKind: GVK, requestResource: GVR, requestSubResource: T.string,
  name: T.string, namespace: T.string, operation: T.string, userInfo: USER_INFO, dryRun: T.bool, options: T.dyn,
});

const NS_CONDITION = objectType('kubernetes.NamespaceCondition', {
  status: T.string, type: T.string, lastTransitionTime: T.timestamp, message: T.string, reason: T.string,
});
/** plugin/cel BuildNamespaceType (its metadata declares `UID`, as the real type does). */
export const NAMESPACE_TYPE = objectType('kubernetes.Namespace', {
  metadata: objectType('kubernetes.NamespaceMetadata', {
    name: T.string, generateName: T.string, namespace: T.string, labels: T.map(T.string, T.string),
    annotations: T.map(T.string, T.string), UID: T.string, creationTimestamp: T.timestamp,
    deletionGracePeriodSeconds: T.int, deletionTimestamp: T.timestamp, generation: T.int, resourceVersion: T.string,
    finalizers: T.list(T.string),
  }),
  spec: objectType('kubernetes.NamespaceSpec', { finalizers: T.list(T.string) }),
  status: objectType('kubernetes.NamespaceStatus', { conditions: T.list(NS_CONDITION), phase: T.string }),
});

export interface EnvOptions {
  hasParams: boolean;
  hasAuthorizer: boolean;
  /** The `variables` object type (its field map grows as variables compile). */
  variables: ObjectType;
  /** Type checking: the matched kind's type for object/oldObject, and the paramKind's type. */
  objectType?: CelType;
  paramsType?: CelType;
  /** Type checking declares `authorizer` only (not `authorizer.requestResource`), as the real checker. */
  typeChecking?: boolean;
}

export function admissionEnv(o: EnvOptions): CelEnv {
  const v: Record<string, CelType> = {
    object: o.objectType ?? T.dyn,
    oldObject: o.objectType ?? T.dyn,
    namespaceObject: NAMESPACE_TYPE,
    request: REQUEST_TYPE,
    variables: o.variables,
  };
  if (o.hasParams) v.params = o.paramsType ?? T.dyn;
  if (o.hasAuthorizer) {
    v.authorizer = AUTHORIZER_TYPE;
    if (!o.typeChecking) v['authorizer.requestResource'] = RESOURCE_CHECK_TYPE;
  }
  return createCelEnv({ variables: v });
}

export type ReturnKind = 'bool' | 'string' | 'stringOrNull' | 'any';

export interface Compiled {
  expression: string;
  program?: CelProgram;
  /** cel.Error detail: "compilation failed: ERROR: <input>:..." or "must evaluate to bool but got int". */
  error?: string;
  outputType: CelType;
}

/** cel-go's Type.String(): like typeName, but the null type is `null_type`. */
export function celTypeString(t: CelType): string {
  return t.kind === 'null_type' ? 'null_type' : typeName(t);
}

/** CompileCELExpression: parse and check, then the result type against the expression's return types. */
export function compileExpression(env: CelEnv, expression: string, returns: ReturnKind): Compiled {
  const p = env.compile(expression);
  if (isCompileError(p)) return { expression, error: `compilation failed: ${p.formatted}`, outputType: T.dyn };
  const out = p.resultType;
  if (returns === 'bool' && !typeEquals(out, T.bool)) return { expression, error: `must evaluate to bool but got ${celTypeString(out)}`, outputType: out };
  if (returns === 'string' && !typeEquals(out, T.string)) return { expression, error: `must evaluate to string but got ${celTypeString(out)}`, outputType: out };
  if (returns === 'stringOrNull' && !typeEquals(out, T.string) && !typeEquals(out, T.null)) {
    return { expression, error: `must evaluate to one of [string null_type] but got ${celTypeString(out)}`, outputType: out };
  }
  return { expression, program: p, outputType: out };
}
