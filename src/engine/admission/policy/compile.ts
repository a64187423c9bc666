// A ValidatingAdmissionPolicy compiled once per generation [K8S policy/validating plugin.go compilePolicy]:
// variables first (each sees the ones before it, typed as compiled; a variable that fails to compile is
// dyn), then matchConditions, validations and auditAnnotations (with `authorizer`), then the validations'
// messageExpressions (without it). Errors are kept with the expression and reported when it is evaluated.

import type { CelType } from '../../cel/index.js';
import type { KubeObject } from '../../object.js';
import { admissionEnv, compileExpression, objectType, type Compiled } from './cel.js';

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as unknown[]).map((x) => (x ?? {}) as Obj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface CompiledValidation {
  expression: string;
  message: string;
  reason?: string;
  compiled: Compiled;
  messageExpression?: Compiled;
}

export interface CompiledPolicy {
  hasParams: boolean;
  failurePolicy: string;
  variables: { name: string; compiled: Compiled }[];
  matchConditions: { name: string; compiled: Compiled }[];
  validations: CompiledValidation[];
  auditAnnotations: { key: string; valueExpression: string; compiled: Compiled }[];
}

export function compilePolicy(policy: KubeObject): CompiledPolicy {
  const spec = (policy.spec ?? {}) as Obj;
  const hasParams = !!spec.paramKind;
  const fields = new Map<string, CelType>();
  const variablesType = objectType('kubernetes.variables', fields);
  const env = admissionEnv({ hasParams, hasAuthorizer: true, variables: variablesType });
  const variables = arr(spec.variables).map((v) => {
    const compiled = compileExpression(env, str(v.expression), 'any');
    // CompositionEnv.AddField: a variable that does not compile is dyn to the expressions after it
    fields.set(str(v.name), compiled.program ? compiled.outputType : { kind: 'dyn' });
    return { name: str(v.name), compiled };
  });
  const messageEnv = admissionEnv({ hasParams, hasAuthorizer: false, variables: variablesType });
  return {
    hasParams,
    failurePolicy: typeof spec.failurePolicy === 'string' ? spec.failurePolicy : 'Fail',
    variables,
    matchConditions: arr(spec.matchConditions).map((m) => ({ name: str(m.name), compiled: compileExpression(env, str(m.expression), 'bool') })),
    validations: arr(spec.validations).map((v) => ({
      expression: str(v.expression),
      message: str(v.message),
      ...(typeof v.reason === 'string' ? { reason: v.reason } : {}),
      compiled: compileExpression(env, str(v.expression), 'bool'),
      ...(str(v.messageExpression) ? { messageExpression: compileExpression(messageEnv, str(v.messageExpression), 'string') } : {}),
    })),
    auditAnnotations: arr(spec.auditAnnotations).map((a) => ({
      key: str(a.key),
      valueExpression: str(a.valueExpression),
      compiled: compileExpression(env, str(a.valueExpression), 'stringOrNull'),
    })),
  };
}

/**
 * Compiled policies by uid, recompiled when the generation changes (a spec change bumps it; labels and
 * status do not), and dropped when the policy is gone.
 */
export class PolicyCache {
  private readonly byUid = new Map<string, { generation: unknown; compiled: CompiledPolicy }>();

  get(policy: KubeObject): CompiledPolicy {
    const uid = policy.metadata?.uid ?? policy.metadata?.name ?? '';
    const generation = policy.metadata?.generation;
    const hit = this.byUid.get(uid);
    if (hit && hit.generation === generation) return hit.compiled;
    const compiled = compilePolicy(policy);
    this.byUid.set(uid, { generation, compiled });
    return compiled;
  }

  /** Forgets the policies not in `live` (uids). */
  retain(live: Set<string>): void {
    for (const uid of this.byUid.keys()) if (!live.has(uid)) this.byUid.delete(uid);
  }
}
