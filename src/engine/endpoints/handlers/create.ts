// POST to a collection [K8S handlers/create.go].

import { badRequest } from '../../errors.js';
import { respond } from '../responders.js';
import type { WriteOutcome } from '../../registry/store.js';
import { objectJsonText } from './list.js';
import { decodeObjectBody, expectKind, type Scope } from '../scope.js';
import { admissionRequest, expectRequestObject, fieldValidate, logRequestObject, recordUpdate, typeCheck, writeOptions } from '../pipeline.js';
import type { EngineResponse } from '../wire.js';

export async function handleCreate(scope: Scope): Promise<EngineResponse> {
  const { def, core, info } = scope;
  expectRequestObject(scope);
  const opts = writeOptions(scope, 'CreateOptions');
  const body = await decodeObjectBody(scope);
  const input = expectKind(scope, body.value);
  const ns = input.metadata?.namespace;
  if (def.namespaced && ns && ns !== info.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  typeCheck(def, input);
  const admitted = fieldValidate(def, input, body.duplicates, opts.fieldValidation, { operation: 'create', mediaType: body.format === 'yaml' ? 'yaml' : 'json' });
  logRequestObject(scope, admitted.object);
  const out = await core.store.create(def, info.namespace, admitted.object, {
    dryRun: opts.dryRun,
    admission: admissionRequest(scope),
    finalize: recordUpdate(scope, opts.fieldManager, ''),
  });
  return respondWritten(scope, 201, out, admitted.warnings);
}

/** Writes answer with the object itself, never a Table. */
export function plain(scope: Scope) {
  const neg = scope.negotiated;
  return neg.as ? { format: neg.format, contentType: neg.contentType.split(';')[0] } : neg;
}

/**
 * The answer of a write: the object, never a Table. As compact JSON it is written as a get of the stored
 * object answers it (the same bytes), and is not kept with the object (a read keeps it).
 */
export function respondWritten(scope: Scope, status: number, out: WriteOutcome, warnings: string[]): EngineResponse {
  const stored = out.stored;
  return respond(status, out.object, {
    negotiated: plain(scope),
    pretty: scope.pretty,
    warnings: [...warnings, ...out.warnings],
    // not kept with the object: every written object would hold its serialization until it is read
    // (the scale bench's heap went from 2.33x to 2.98x of the stored JSON with it)
    ...(stored ? { compactJson: () => objectJsonText(scope.def, stored) } : {}),
  });
}
