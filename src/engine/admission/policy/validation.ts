// The expressions of a ValidatingAdmissionPolicy are compiled when it is written, and one that does not
// compile (or has the wrong result type) is refused [K8S apis/admissionregistration/validation
// validateVariable, validateValidation, validateMatchCondition, validateAuditAnnotation]: Invalid with the
// compiler's detail, at the expression's field.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { compilePolicy } from './compile.js';

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as unknown[]).map((x) => (x ?? {}) as Obj) : []);
const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';

export function validatePolicyExpressions(policy: KubeObject): FieldError[] {
  const spec = (policy.spec ?? {}) as Obj;
  const compiled = compilePolicy(policy);
  const errs: FieldError[] = [];
  arr(spec.variables).forEach((v, i) => {
    const e = compiled.variables[i]?.compiled;
    if (!blank(v.expression) && e?.error) errs.push(fieldErr.invalid(`spec.variables[${i}].expression`, v.expression, e.error));
  });
  arr(spec.validations).forEach((v, i) => {
    const c = compiled.validations[i];
    if (!blank(v.expression) && c?.compiled.error) errs.push(fieldErr.invalid(`spec.validations[${i}].expression`, v.expression, c.compiled.error));
    if (!blank(v.messageExpression) && c?.messageExpression?.error) {
      errs.push(fieldErr.invalid(`spec.validations[${i}].messageExpression`, v.messageExpression, c.messageExpression.error));
    }
  });
  arr(spec.matchConditions).forEach((m, i) => {
    const e = compiled.matchConditions[i]?.compiled;
    if (!blank(m.expression) && e?.error) errs.push(fieldErr.invalid(`spec.matchConditions[${i}].expression`, m.expression, e.error));
  });
  arr(spec.auditAnnotations).forEach((a, i) => {
    const e = compiled.auditAnnotations[i]?.compiled;
    if (!blank(a.valueExpression) && e?.error) errs.push(fieldErr.invalid(`spec.auditAnnotations[${i}].valueExpression`, a.valueExpression, e.error));
  });
  return errs;
}
