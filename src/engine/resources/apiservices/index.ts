// APIServices (apiregistration.k8s.io/v1): ValidateAPIService(+Update) of the aggregator and the printer
// (NAME, SERVICE, AVAILABLE, AGE). The Local APIServices of the built-in group versions are created with the
// cluster (bootstrap/default-objects.ts), as the aggregator's autoregistration does.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { RESET_OBJECT_META_FOR_STATUS, type ResourceDefinition } from '../../registry/types.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { a, ageColumn, col, o, str } from '../common/printers.js';

function validateAPIService(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  const group = str(spec.group);
  const version = str(spec.version);
  const name = str(obj.metadata?.name);
  if (name !== `${version}.${group}`) errs.push(fieldErr.invalid('metadata.name', name, 'must be `spec.version+"."+spec.group`'));
  if (!group && version !== 'v1') errs.push(fieldErr.required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group) for (const m of isDNS1123Subdomain(group)) errs.push(fieldErr.invalid('spec.group', group, m));
  for (const m of isDNS1035Label(version)) errs.push(fieldErr.invalid('spec.version', version, m));
  const gp = typeof spec.groupPriorityMinimum === 'number' ? spec.groupPriorityMinimum : 0;
  if (gp <= 0 || gp > 20000) errs.push(fieldErr.invalid('spec.groupPriorityMinimum', gp, 'must be positive and less than 20000'));
  const vp = typeof spec.versionPriority === 'number' ? spec.versionPriority : 0;
  if (vp <= 0 || vp > 1000) errs.push(fieldErr.invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
  if (spec.service === undefined || spec.service === null) {
    if (str(spec.caBundle)) errs.push(fieldErr.invalid('spec.caBundle', `${str(spec.caBundle).length} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify === true) errs.push(fieldErr.invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
  } else {
    const svc = o(spec.service);
    if (!str(svc.namespace)) errs.push(fieldErr.required('spec.service.namespace', ''));
    if (!str(svc.name)) errs.push(fieldErr.required('spec.service.name', ''));
    if (typeof svc.port === 'number' && (svc.port < 1 || svc.port > 65535)) {
      errs.push(fieldErr.invalid('spec.service.port', svc.port, 'port is not valid: must be between 1 and 65535, inclusive'));
    }
    if (spec.insecureSkipTLSVerify === true && str(spec.caBundle)) {
      errs.push(fieldErr.invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
    }
  }
  return errs;
}

function available(obj: KubeObject): string {
  const c = a(o(obj.status).conditions).find((x) => x.type === 'Available');
  if (!c) return 'Unknown';
  return c.status === 'True' ? 'True' : `${str(c.status)} (${str(c.reason)})`;
}

export const apiservices = builtin('apiregistration.k8s.io', 'v1', 'apiservices', {
  // the status strategy keeps spec, labels, annotations, finalizers and owner references (kube-aggregator)
  statusPinnedMetadata: RESET_OBJECT_META_FOR_STATUS,

  nameValidator: () => [],
  default: (obj) => {
    const svc = o(obj.spec).service;
    if (svc !== undefined && svc !== null) (svc as Record<string, unknown>).port ??= 443;
  },
  validateObject: validateAPIService,
  tableColumns: [
    col('Service', 'string', 'The service that answers for the group version, or Local.', (obj) => {
      const svc = o(obj.spec).service;
      return svc === undefined || svc === null ? 'Local' : `${str(o(svc).namespace)}/${str(o(svc).name)}`;
    }),
    col('Available', 'string', 'Whether the group version is being served.', available),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
