// Ingresses (networking.k8s.io/v1): the main checks of ValidateIngress, printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortName, isValidPortNum } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { a, ageColumn, col, o, str } from '../common/printers.js';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

function validateBackend(b: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const backend = o(b);
  const svc = backend.service;
  const res = backend.resource;
  if (svc && res) errs.push(fieldErr.invalid(path, '', 'cannot set both resource and service backends'));
  else if (svc) {
    const s = o(svc);
    if (!s.name) errs.push(fieldErr.required(`${path}.service.name`, ''));
    else for (const m of isDNS1035Label(str(s.name))) errs.push(fieldErr.invalid(`${path}.service.name`, s.name, m));
    const port = o(s.port);
    const hasName = typeof port.name === 'string' && port.name !== '';
    const hasNumber = typeof port.number === 'number' && port.number !== 0;
    if (hasName && hasNumber) errs.push(fieldErr.invalid(`${path}.service.port`, port.number, 'cannot set both port name & port number'));
    else if (hasName) for (const m of isValidPortName(str(port.name))) errs.push(fieldErr.invalid(`${path}.service.port.name`, port.name, m));
    else if (hasNumber) for (const m of isValidPortNum(Number(port.number))) errs.push(fieldErr.invalid(`${path}.service.port.number`, port.number, m));
    else errs.push(fieldErr.required(`${path}.service.port`, 'port name or number is required'));
  } else if (!res) {
    errs.push(fieldErr.invalid(path, '', 'resource or service backend is required'));
  }
  return errs;
}

function validateIngress(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  else if (a(spec.rules).length === 0) errs.push(fieldErr.invalid('spec.rules', [], 'either `defaultBackend` or `rules` must be specified'));
  a(spec.rules).forEach((r, i) => {
    const rp = `spec.rules[${i}]`;
    const host = str(r.host);
    if (host) {
      const h = host.startsWith('*.') ? host.slice(2) : host;
      for (const m of isDNS1123Subdomain(h)) errs.push(fieldErr.invalid(`${rp}.host`, host, m));
    }
    const http = o(r.http);
    if (r.http !== undefined) {
      const paths = a(http.paths);
      if (paths.length === 0) errs.push(fieldErr.required(`${rp}.http.paths`, ''));
      paths.forEach((p, j) => {
        const pp = `${rp}.http.paths[${j}]`;
        if (!p.pathType) errs.push(fieldErr.required(`${pp}.pathType`, 'pathType must be specified'));
        else if (!PATH_TYPES.includes(str(p.pathType))) errs.push(fieldErr.notSupported(`${pp}.pathType`, p.pathType, PATH_TYPES));
        else if ((p.pathType === 'Exact' || p.pathType === 'Prefix') && !str(p.path).startsWith('/')) {
          errs.push(fieldErr.invalid(`${pp}.path`, str(p.path), 'must be an absolute path'));
        }
        errs.push(...validateBackend(p.backend, `${pp}.backend`));
      });
    }
  });
  return errs;
}

export const ingresses = builtin('networking.k8s.io', 'v1', 'ingresses', {
  prepareForCreate: (obj) => {
    obj.status = { loadBalancer: {} };
  },
  validateObject: (obj) => validateIngress(obj),
  tableColumns: [
    col('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration', (obj) => str(o(obj.spec).ingressClassName) || '<none>'),
    col('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule', (obj) => {
      const rules = a(o(obj.spec).rules);
      const list: string[] = [];
      let more = false;
      for (const r of rules) {
        if (list.length === 3) more = true;
        if (!more && str(r.host)) list.push(str(r.host));
      }
      if (!list.length) return '*';
      return more ? `${list.join(',')} + ${rules.length - 3} more...` : list.join(',');
    }),
    col('Address', 'string', 'Address is a list containing ingress points for the load-balancer', (obj) =>
      [...new Set(a(o(o(obj.status).loadBalancer).ingress).map((i) => str(i.ip) || str(i.hostname)).filter(Boolean))].sort().join(',')),
    col('Ports', 'string', 'Ports of TLS configurations that open', (obj) => (a(o(obj.spec).tls).length ? '80, 443' : '80')),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
