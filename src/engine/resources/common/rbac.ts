// rbac.authorization.k8s.io/v1: defaults (subject/roleRef apiGroup), ValidatePolicyRule, binding checks,
// the binding printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { TableColumn } from '../../registry/types.js';
import { nameIsPathSegment } from '../../util/validation.js';
import { goQuote, goStringSlice, invalidRepr } from './go-repr.js';
import { a, ageColumn, col, o, str } from './printers.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  a(obj.rules).forEach((r, i) => {
    const p = `rules[${i}]`;
    const len = (v: unknown) => (Array.isArray(v) ? v.length : 0);
    if (len(r.verbs) === 0) errs.push(fieldErr.required(`${p}.verbs`, 'verbs must contain at least one value'));
    if (len(r.nonResourceURLs) > 0) {
      if (namespaced) errs.push(invalidRepr(`${p}.nonResourceURLs`, goStringSlice(r.nonResourceURLs), 'namespaced rules cannot apply to non-resource URLs'));
      if (len(r.apiGroups) > 0 || len(r.resources) > 0 || len(r.resourceNames) > 0) {
        errs.push(invalidRepr(`${p}.nonResourceURLs`, goStringSlice(r.nonResourceURLs), 'rules cannot apply to both regular resources and non-resource URLs'));
      }
      return;
    }
    if (len(r.apiGroups) === 0) errs.push(fieldErr.required(`${p}.apiGroups`, 'resource rules must supply at least one api group'));
    if (len(r.resources) === 0) errs.push(fieldErr.required(`${p}.resources`, 'resource rules must supply at least one resource'));
  });
  return errs;
}

export function defaultBinding(obj: KubeObject): void {
  const ref = (obj.roleRef = o(obj.roleRef));
  if (!ref.apiGroup) ref.apiGroup = RBAC_GROUP;
  for (const s of a(obj.subjects)) {
    if (s.apiGroup === undefined || s.apiGroup === '') {
      if (s.kind === 'ServiceAccount') s.apiGroup = '';
      else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC_GROUP;
    }
  }
}

export function validateBinding(obj: KubeObject, clusterScoped: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = o(obj.roleRef);
  if (ref.apiGroup !== RBAC_GROUP) errs.push(fieldErr.notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = clusterScoped ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  if (!kinds.includes(str(ref.kind))) errs.push(fieldErr.notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(fieldErr.required('roleRef.name', ''));
  else for (const m of nameIsPathSegment(str(ref.name), false)) errs.push(fieldErr.invalid('roleRef.name', ref.name, m));
  a(obj.subjects).forEach((s, i) => {
    const p = `subjects[${i}]`;
    if (!s.name) errs.push(fieldErr.required(`${p}.name`, ''));
    switch (s.kind) {
      case 'ServiceAccount':
        if (s.apiGroup) errs.push(fieldErr.notSupported(`${p}.apiGroup`, s.apiGroup, ['']));
        if (clusterScoped && !s.namespace) errs.push(fieldErr.required(`${p}.namespace`, ''));
        break;
      case 'User':
      case 'Group':
        if (s.apiGroup !== RBAC_GROUP) errs.push(fieldErr.notSupported(`${p}.apiGroup`, s.apiGroup ?? '', [RBAC_GROUP]));
        break;
      default:
        errs.push(fieldErr.notSupported(`${p}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
    }
  });
  return errs;
}

export function validateRoleRefChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const n = o(obj.roleRef);
  const p = o(old.roleRef);
  if (n.apiGroup === p.apiGroup && n.kind === p.kind && n.name === p.name) return [];
  return [invalidRepr('roleRef', `rbac.RoleRef{APIGroup:${goQuote(str(n.apiGroup))}, Kind:${goQuote(str(n.kind))}, Name:${goQuote(str(n.name))}}`, 'cannot change roleRef')];
}

function subjects(obj: KubeObject, kind: string): string {
  return a(obj.subjects)
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' && str(s.namespace) ? `${str(s.namespace)}/${str(s.name)}` : str(s.name)))
    .join(', ');
}

export function bindingColumns(which: string): TableColumn[] {
  return [
    col('Role', 'string', 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.', (obj) => `${str(o(obj.roleRef).kind)}/${str(o(obj.roleRef).name)}`),
    ageColumn(),
    col('Users', 'string', `Users in the ${which}`, (obj) => subjects(obj, 'User'), 1),
    col('Groups', 'string', `Groups in the ${which}`, (obj) => subjects(obj, 'Group'), 1),
    col('ServiceAccounts', 'string', `ServiceAccounts in the ${which}`, (obj) => subjects(obj, 'ServiceAccount'), 1),
  ];
}
