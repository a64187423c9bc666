// IngressClasses (networking.k8s.io/v1): SetDefaults_IngressClass (parameters scope Cluster), checks, printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { isDNS1123Subdomain, validateImmutable } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { ageColumn, col, o, str } from '../common/printers.js';

function validateController(obj: KubeObject): FieldError[] {
  const c = str(o(obj.spec).controller);
  if (!c) return [fieldErr.required('spec.controller', '')];
  const parts = c.split('/');
  if (parts.length < 2 || !parts[0] || !parts.slice(1).join('/')) return [fieldErr.invalid('spec.controller', c, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs: FieldError[] = [];
  for (const m of isDNS1123Subdomain(parts[0])) errs.push(fieldErr.invalid('spec.controller', parts[0], m));
  if (c.length > 250) errs.push(fieldErr.tooLong('spec.controller', c, 250));
  return errs;
}

export const ingressclasses = builtin('networking.k8s.io', 'v1', 'ingressclasses', {
  default: (obj) => {
    const p = o(obj.spec).parameters;
    if (p && typeof p === 'object' && (p as Record<string, unknown>).scope === undefined) (p as Record<string, unknown>).scope = 'Cluster';
  },
  validateObject: (obj) => validateController(obj),
  validateChange: (obj, old) => validateImmutable(o(obj.spec).controller, o(old.spec).controller, 'spec.controller'),
  tableColumns: [
    col('Controller', 'string', 'Controller that is responsible for handling this class', (obj) => str(o(obj.spec).controller)),
    col('Parameters', 'string', 'A reference to a resource with additional parameters', (obj) => {
      const p = o(obj.spec).parameters;
      if (!p) return '<none>';
      const r = o(p);
      return `${str(r.kind)}${r.apiGroup ? `.${str(r.apiGroup)}` : ''}/${str(r.name)}`;
    }),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
