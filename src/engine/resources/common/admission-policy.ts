// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy(+Binding) defaults and main checks.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { a, o, str } from './printers.js';
import { validatePolicyExpressions } from '../../admission/policy/validation.js';

type Obj = Record<string, unknown>;

/** SetDefaults_MatchResources + SetDefaults_Rule on the resource rules. */
export function defaultMatchResources(m: unknown): void {
  if (!m || typeof m !== 'object') return;
  const mr = m as Obj;
  if (!mr.matchPolicy) mr.matchPolicy = 'Equivalent';
  if (mr.namespaceSelector === undefined || mr.namespaceSelector === null) mr.namespaceSelector = {};
  if (mr.objectSelector === undefined || mr.objectSelector === null) mr.objectSelector = {};
  for (const r of [...a(mr.resourceRules), ...a(mr.excludeResourceRules)]) if (r.scope === undefined) r.scope = '*';
}

export function defaultPolicy(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  if (!spec.failurePolicy) spec.failurePolicy = 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

export function validatePolicy(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  if (!spec.matchConstraints) errs.push(fieldErr.required('spec.matchConstraints', ''));
  else if (a(o(spec.matchConstraints).resourceRules).length === 0) {
    errs.push(fieldErr.required('spec.matchConstraints.resourceRules', ''));
  }
  const validations = a(spec.validations);
  const audit = a(spec.auditAnnotations);
  if (validations.length === 0 && audit.length === 0) {
    errs.push(fieldErr.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
    errs.push(fieldErr.required('spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'));
  }
  validations.forEach((v, i) => {
    if (!str(v.expression).trim()) errs.push(fieldErr.required(`spec.validations[${i}].expression`, ''));
    if (v.reason !== undefined && !['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'].includes(str(v.reason))) {
      errs.push(fieldErr.notSupported(`spec.validations[${i}].reason`, v.reason, ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized']));
    }
  });
  if (spec.failurePolicy !== undefined && spec.failurePolicy !== 'Fail' && spec.failurePolicy !== 'Ignore') {
    errs.push(fieldErr.notSupported('spec.failurePolicy', spec.failurePolicy, ['Fail', 'Ignore']));
  }
  const pk = spec.paramKind;
  if (pk) {
    if (!o(pk).kind) errs.push(fieldErr.required('spec.paramKind.kind', ''));
    if (!o(pk).apiVersion) errs.push(fieldErr.required('spec.paramKind.apiVersion', ''));
  }
  errs.push(...validatePolicyExpressions(obj));
  return errs;
}

const ACTIONS = ['Audit', 'Deny', 'Warn'];

export function validateBinding(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  if (!spec.policyName) errs.push(fieldErr.required('spec.policyName', ''));
  const actions = Array.isArray(spec.validationActions) ? (spec.validationActions as unknown[]) : [];
  if (actions.length === 0) errs.push(fieldErr.required('spec.validationActions', 'at least one validation action is required'));
  const seen = new Set<string>();
  actions.forEach((act, i) => {
    if (!ACTIONS.includes(String(act))) errs.push(fieldErr.notSupported(`spec.validationActions[${i}]`, act, ACTIONS));
    if (seen.has(String(act))) errs.push(fieldErr.duplicate(`spec.validationActions[${i}]`, act));
    seen.add(String(act));
  });
  if (actions.includes('Deny') && actions.includes('Warn')) {
    errs.push(fieldErr.invalid('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  const pr = spec.paramRef;
  if (pr) {
    const r = o(pr);
    if (r.name && r.selector) errs.push(fieldErr.forbidden('spec.paramRef.name', 'name and selector are mutually exclusive'));
    if (!r.name && !r.selector) errs.push(fieldErr.required('spec.paramRef', 'one of name or selector must be specified'));
    if (!r.parameterNotFoundAction) errs.push(fieldErr.required('spec.paramRef.parameterNotFoundAction', ''));
    else if (r.parameterNotFoundAction !== 'Allow' && r.parameterNotFoundAction !== 'Deny') {
      errs.push(fieldErr.notSupported('spec.paramRef.parameterNotFoundAction', r.parameterNotFoundAction, ['Allow', 'Deny']));
    }
  }
  return errs;
}
