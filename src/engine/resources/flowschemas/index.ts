// FlowSchemas (flowcontrol.apiserver.k8s.io/v1): SetDefaults_FlowSchemaSpec (matchingPrecedence 1000),
// ValidateFlowSchema(+Update) for what a user writes, and the printer (NAME, PRIORITYLEVEL,
// MATCHINGPRECEDENCE, DISTINGUISHERMETHOD, AGE, MISSINGPL).

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { a, ageColumn, col, o, str } from '../common/printers.js';

const DISTINGUISHERS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];

function validateSubject(s: Record<string, unknown>, p: string): FieldError[] {
  const kind = str(s.kind);
  const errs: FieldError[] = [];
  if (!SUBJECT_KINDS.includes(kind)) return [fieldErr.notSupported(`${p}.kind`, kind, SUBJECT_KINDS)];
  const field = kind === 'User' ? 'user' : kind === 'Group' ? 'group' : 'serviceAccount';
  const body = o(s[field]);
  if (s[field] === undefined || s[field] === null) errs.push(fieldErr.required(`${p}.${field}`, `${field} is required when subject kind is '${kind}'`));
  else if (kind === 'ServiceAccount') {
    if (!str(body.name)) errs.push(fieldErr.required(`${p}.serviceAccount.name`, "must be non-empty, use '*' to match all"));
    if (!str(body.namespace)) errs.push(fieldErr.required(`${p}.serviceAccount.namespace`, 'must specify namespace for service account'));
  } else if (!str(body.name)) errs.push(fieldErr.required(`${p}.${field}.name`, "must be non-empty, use '*' to match all"));
  return errs;
}

function validateFlowSchema(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  const prec = spec.matchingPrecedence;
  if (typeof prec === 'number') {
    if (prec <= 0) errs.push(fieldErr.invalid('spec.matchingPrecedence', prec, 'must be a positive value'));
    else if (prec > 10000) errs.push(fieldErr.invalid('spec.matchingPrecedence', prec, 'must not be greater than 10000'));
  }
  if (spec.distinguisherMethod !== undefined && spec.distinguisherMethod !== null) {
    const t = str(o(spec.distinguisherMethod).type);
    if (!DISTINGUISHERS.includes(t)) errs.push(fieldErr.notSupported('spec.distinguisherMethod.type', t, DISTINGUISHERS));
  }
  if (!str(o(spec.priorityLevelConfiguration).name)) errs.push(fieldErr.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  a(spec.rules).forEach((r, i) => {
    const p = `spec.rules[${i}]`;
    const subjects = a(r.subjects);
    if (subjects.length === 0) errs.push(fieldErr.required(`${p}.subjects`, 'subjects must contain at least one value'));
    subjects.forEach((s, j) => errs.push(...validateSubject(s, `${p}.subjects[${j}]`)));
    if (a(r.resourceRules).length === 0 && a(r.nonResourceRules).length === 0) {
      errs.push(fieldErr.required(p, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    }
  });
  return errs;
}

export const flowschemas = builtin('flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas', {
  // the status strategy restores the whole ObjectMeta but managedFields
  statusPinnedMetadata: 'all',

  default: (obj) => {
    const spec = (obj.spec = o(obj.spec));
    if (spec.matchingPrecedence === undefined || spec.matchingPrecedence === 0) spec.matchingPrecedence = 1000;
  },
  prepareForCreate: (obj) => {
    obj.status = {};
  },
  validateObject: validateFlowSchema,
  tableColumns: [
    col('PriorityLevel', 'string', 'The priority level the matched requests are assigned to.', (obj) => str(o(o(obj.spec).priorityLevelConfiguration).name)),
    col('MatchingPrecedence', 'string', 'Lower values match first.', (obj) => String(o(obj.spec).matchingPrecedence ?? '')),
    col('DistinguisherMethod', 'string', 'How matched requests are split into flows.', (obj) => str(o(o(obj.spec).distinguisherMethod).type) || '<none>'),
    ageColumn(),
    col('MissingPL', 'string', 'Whether the referenced priority level is missing (the Dangling condition).', (obj) => {
      const c = a(o(obj.status).conditions).find((x) => x.type === 'Dangling');
      return c ? str(c.status) : '?';
    }),
  ],
}) satisfies ResourceDefinition;
