// POST to a collection [K8S handlers/create.go].

import { badRequest } from '../../errors.js';
import { respond } from '../responders.js';
import { decodeObjectBody, expectKind, type Scope } from '../scope.js';
import { admissionRequest, fieldValidate, recordUpdate, typeCheck, writeOptions } from '../pipeline.js';
import type { EngineResponse } from '../wire.js';

export async function handleCreate(scope: Scope): Promise<EngineResponse> {
  const { def, core, info } = scope;
  const opts = writeOptions(scope, 'CreateOptions');
  const body = await decodeObjectBody(scope);
  const input = expectKind(scope, body.value);
  const ns = input.metadata?.namespace;
  if (def.namespaced && ns && ns !== info.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  typeCheck(def, input);
  const admitted = fieldValidate(def, input, body.duplicates, opts.fieldValidation, { operation: 'create', mediaType: body.format === 'yaml' ? 'yaml' : 'json' });
  const out = await core.store.create(def, info.namespace, admitted.object, {
    dryRun: opts.dryRun,
    admission: admissionRequest(scope),
    finalize: recordUpdate(scope, opts.fieldManager, ''),
  });
  return respond(201, out.object, { negotiated: plain(scope), pretty: scope.pretty, warnings: [...admitted.warnings, ...out.warnings] });
}

/** Writes answer with the object itself, never a Table. */
export function plain(scope: Scope) {
  const neg = scope.negotiated;
  return neg.as ? { format: neg.format, contentType: neg.contentType.split(';')[0] } : neg;
}
