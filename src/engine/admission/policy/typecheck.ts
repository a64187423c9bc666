// Type checking of a ValidatingAdmissionPolicy [K8S policy/validating typechecking.go]: each validation's
// expression and messageExpression is checked with `object`/`oldObject` typed by the schema of every kind
// the policy's resourceRules name exactly (no wildcards, no subresources; at most 10 kinds), and `params` by
// the paramKind's schema (undeclared when that schema is unknown). What does not check becomes an
// expression warning: `<group>/<version>, Kind=<kind>: <the checker's errors>` per kind. The status
// controller writes them to status.typeChecking.

import { schemaToCelType, type CelType } from '../../cel/index.js';
import type { Schema, SchemaRegistry } from '../../schema/types.js';
import type { KubeObject } from '../../object.js';
import { admissionEnv, objectType } from './cel.js';
import type { GVK, GVR } from './matching.js';

/** The most kinds one policy is checked against (maxTypesToCheck). */
const MAX_TYPES_TO_CHECK = 10;

export interface TypeCheckResolver {
  /** The kinds served at a group/version/resource (RESTMapper.KindsFor). */
  kindsFor(gvr: GVR): GVK[];
  /** The schema of a kind, with the definitions its refs name; undefined when unknown. */
  schemaFor(gvk: GVK): { schema: Schema; definitions: SchemaRegistry } | undefined;
}

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as unknown[]).map((x) => (x ?? {}) as Obj) : []);
const strs = (v: unknown): string[] => (Array.isArray(v) ? (v as unknown[]).map(String) : []);

/** schema.GroupVersionKind.String(). */
export function gvkString(k: GVK): string {
  return `${k.group}/${k.version}, Kind=${k.kind}`;
}

/** strings.Compare: byte order, not the locale's. */
const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

function compare(a: GVK, b: GVK): number {
  return cmp(a.group, b.group) || cmp(a.version, b.version) || cmp(a.kind, b.kind);
}

/** typesToCheck: the kinds named exactly by the policy's resourceRules, sorted. */
export function typesToCheck(policy: KubeObject, r: TypeCheckResolver): GVK[] {
  const rules = arr(((policy.spec ?? {}) as Obj).matchConstraints && ((policy.spec as Obj).matchConstraints as Obj).resourceRules);
  const found = new Map<string, GVK>();
  let count = 0;
  for (const rule of rules) {
    const groups = strs(rule.apiGroups);
    const versions = strs(rule.apiVersions);
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = strs(rule.resources).filter((x) => !/[*/]/.test(x));
    if (!groups.length || !versions.length || !resources.length) continue;
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const resource of [...resources].sort()) {
          for (const k of r.kindsFor({ group, version, resource })) {
            found.set(gvkString(k), k);
            if (++count === MAX_TYPES_TO_CHECK) return [...found.values()].sort(compare);
          }
        }
      }
    }
  }
  return [...found.values()].sort(compare);
}

function declType(r: TypeCheckResolver, gvk: GVK | undefined): CelType | undefined {
  if (!gvk) return undefined;
  const s = r.schemaFor(gvk);
  if (!s) return undefined;
  return schemaToCelType(s.schema, s.definitions, { resourceRoot: true, name: gvk.kind });
}

/** TypeChecker.Check: the expression warnings of a policy. */
export function typeCheckPolicy(policy: KubeObject, r: TypeCheckResolver): ExpressionWarning[] {
  const spec = (policy.spec ?? {}) as Obj;
  const kinds = typesToCheck(policy, r).map((gvk) => ({ gvk, type: declType(r, gvk) })).filter((k) => k.type !== undefined);
  if (!kinds.length) return [];
  const pk = spec.paramKind as Obj | undefined;
  let paramsType: CelType | undefined;
  if (pk) {
    const av = String(pk.apiVersion ?? '');
    const i = av.indexOf('/');
    paramsType = declType(r, { group: i < 0 ? '' : av.slice(0, i), version: i < 0 ? av : av.slice(i + 1), kind: String(pk.kind ?? '') });
  }
  // one environment per kind, with the policy's variables compiled into it
  const envs = kinds.map((k) => {
    const fields = new Map<string, CelType>();
    const env = admissionEnv({ hasParams: paramsType !== undefined, hasAuthorizer: true, typeChecking: true, variables: objectType('kubernetes.variables', fields), objectType: k.type, paramsType });
    for (const v of arr(spec.variables)) {
      const p = env.compile(String(v.expression ?? ''));
      fields.set(String(v.name ?? ''), 'kind' in p ? { kind: 'dyn' } : p.resultType);
    }
    return { gvk: k.gvk, env };
  });
  const check = (expression: string): string => {
    const out: string[] = [];
    for (const { gvk, env } of envs) {
      const p = env.compile(expression);
      if ('kind' in p) out.push(`${gvkString(gvk)}: ${p.formatted}\n`);
    }
    return out.join('\n');
  };
  const warnings: ExpressionWarning[] = [];
  arr(spec.validations).forEach((v, i) => {
    const w = check(String(v.expression ?? ''));
    if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (typeof v.messageExpression === 'string' && v.messageExpression) {
      const m = check(v.messageExpression);
      if (m) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
    }
  });
  return warnings;
}
