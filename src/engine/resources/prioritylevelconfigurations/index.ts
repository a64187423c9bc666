// PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io/v1): the v1 defaults (nominalConcurrencyShares
// 30 for Limited, 0 for Exempt; lendablePercent 0; queuing 64 queues, hand size 8, queue length 50),
// ValidatePriorityLevelConfiguration for what a user writes, and the printer (NAME, TYPE,
// NOMINALCONCURRENCYSHARES, QUEUES, HANDSIZE, QUEUELENGTHLIMIT, AGE).

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { ageColumn, col, o, str } from '../common/printers.js';

const TYPES = ['Exempt', 'Limited'];
const RESPONSES = ['Queue', 'Reject'];

function validatePLC(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const name = str(obj.metadata?.name);
  const type = str(spec.type);
  const errs: FieldError[] = [];
  // the mandatory objects' types are fixed by name
  if (name === 'exempt' && type !== 'Exempt') errs.push(fieldErr.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  if (!TYPES.includes(type)) return [...errs, fieldErr.notSupported('spec.type', type, TYPES)];
  if (type === 'Exempt') {
    if (spec.limited !== undefined && spec.limited !== null) errs.push(fieldErr.forbidden('spec.limited', 'must be nil if the type is not Limited'));
    return errs;
  }
  if (spec.exempt !== undefined && spec.exempt !== null) errs.push(fieldErr.forbidden('spec.exempt', 'must be nil if the type is Limited'));
  if (spec.limited === undefined || spec.limited === null) return [...errs, fieldErr.required('spec.limited', 'must not be empty when type is Limited')];
  const lim = o(spec.limited);
  const shares = lim.nominalConcurrencyShares;
  if (typeof shares === 'number' && shares < 0) errs.push(fieldErr.invalid('spec.limited.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
  const lend = lim.lendablePercent;
  if (typeof lend === 'number' && (lend < 0 || lend > 100)) errs.push(fieldErr.invalid('spec.limited.lendablePercent', lend, 'must be between 0 and 100, inclusive'));
  const lr = o(lim.limitResponse);
  const rt = str(lr.type);
  if (!RESPONSES.includes(rt)) errs.push(fieldErr.notSupported('spec.limited.limitResponse.type', rt, RESPONSES));
  else if (rt === 'Queue') {
    const q = o(lr.queuing);
    if (lr.queuing === undefined || lr.queuing === null) errs.push(fieldErr.required('spec.limited.limitResponse.queuing', 'must not be empty if the type is Queue'));
    else {
      const p = 'spec.limited.limitResponse.queuing';
      if (typeof q.queueLengthLimit === 'number' && q.queueLengthLimit <= 0) errs.push(fieldErr.invalid(`${p}.queueLengthLimit`, q.queueLengthLimit, 'must be positive'));
      if (typeof q.queues === 'number' && q.queues <= 0) errs.push(fieldErr.invalid(`${p}.queues`, q.queues, 'must be positive'));
      if (typeof q.handSize === 'number' && q.handSize <= 0) errs.push(fieldErr.invalid(`${p}.handSize`, q.handSize, 'must be positive'));
      else if (typeof q.handSize === 'number' && typeof q.queues === 'number' && q.handSize > q.queues) {
        errs.push(fieldErr.invalid(`${p}.handSize`, q.handSize, `should not be greater than queues (${q.queues})`));
      }
    }
  } else if (lr.queuing !== undefined && lr.queuing !== null) {
    errs.push(fieldErr.forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
  }
  return errs;
}

function defaultPLC(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  if (spec.type === 'Limited' && spec.limited !== undefined && spec.limited !== null) {
    const lim = (spec.limited = o(spec.limited));
    lim.nominalConcurrencyShares ??= 30;
    lim.lendablePercent ??= 0;
    const lr = o(lim.limitResponse);
    if (lr.type === 'Queue' && lr.queuing !== undefined && lr.queuing !== null) {
      const q = (lr.queuing = o(lr.queuing));
      if (!q.queues) q.queues = 64;
      if (!q.handSize) q.handSize = 8;
      if (!q.queueLengthLimit) q.queueLengthLimit = 50;
    }
  }
  if (spec.type === 'Exempt') {
    const ex = (spec.exempt = o(spec.exempt));
    ex.nominalConcurrencyShares ??= 0;
    ex.lendablePercent ??= 0;
  }
}

const queuing = (obj: KubeObject) => o(o(o(o(obj.spec).limited).limitResponse).queuing);
const orNone = (v: unknown) => (typeof v === 'number' ? String(v) : '<none>');

export const prioritylevelconfigurations = builtin('flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations', {
  // the status strategy restores the whole ObjectMeta but managedFields
  statusPinnedMetadata: 'all',

  default: defaultPLC,
  prepareForCreate: (obj) => {
    obj.status = {};
  },
  validateObject: validatePLC,
  tableColumns: [
    col('Type', 'string', 'Exempt or Limited.', (obj) => str(o(obj.spec).type)),
    col('NominalConcurrencyShares', 'string', 'The share of the server\'s concurrency this level nominally gets.', (obj) => orNone(o(o(obj.spec)[o(obj.spec).type === 'Exempt' ? 'exempt' : 'limited']).nominalConcurrencyShares)),
    col('Queues', 'string', 'Number of queues.', (obj) => orNone(queuing(obj).queues)),
    col('HandSize', 'string', 'Number of queues a flow is shuffle-sharded to.', (obj) => orNone(queuing(obj).handSize)),
    col('QueueLengthLimit', 'string', 'Maximum requests waiting in one queue.', (obj) => orNone(queuing(obj).queueLengthLimit)),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
