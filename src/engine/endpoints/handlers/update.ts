// PUT of one object or of its status subresource [K8S handlers/update.go].

import { badRequest } from '../../errors.js';
import { decodeObjectBody, expectKind, type Scope } from '../scope.js';
import { admissionRequest, expectRequestObject, fieldValidate, logRequestObject, recordUpdate, typeCheck, writeOptions } from '../pipeline.js';
import { respondWritten } from './create.js';
import type { EngineResponse } from '../wire.js';

export async function handleUpdate(scope: Scope): Promise<EngineResponse> {
  const { def, core, info } = scope;
  expectRequestObject(scope);
  const opts = writeOptions(scope, 'UpdateOptions');
  const body = await decodeObjectBody(scope);
  const input = expectKind(scope, body.value);
  typeCheck(def, input);
  const admitted = fieldValidate(def, input, body.duplicates, opts.fieldValidation, { operation: 'update', mediaType: body.format === 'yaml' ? 'yaml' : 'json' });
  const desired = admitted.object;
  logRequestObject(scope, desired);
  // checkName
  const meta = desired.metadata ?? {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (name === '') throw badRequest(`the name of the object (${info.name} based on URL) was undeterminable: name must be provided`);
  if (name !== info.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${info.name})`);
  if (info.namespace && meta.namespace && meta.namespace !== info.namespace) {
    throw badRequest(`the namespace of the object (${meta.namespace}) does not match the namespace on the request (${info.namespace})`);
  }
  // the store writes into the object it is handed: an attempt after a conflict gets the body decoded again
  // (defaultUpdatedObjectInfo hands out a copy of the request's object on every call)
  let handed = false;
  const again = () => {
    const fresh = expectKind(scope, body.again());
    typeCheck(def, fresh);
    return fieldValidate(def, fresh, body.duplicates, opts.fieldValidation, { operation: 'update', mediaType: body.format === 'yaml' ? 'yaml' : 'json' }).object;
  };
  const out = await core.store.update(def, info.namespace, info.name, info.subresource, (current) => {
    // a PUT that creates also needs the `create` verb
    if (!current) scope.auth?.createOnUpdate();
    if (handed) return again();
    handed = true;
    return desired;
  }, {
    dryRun: opts.dryRun,
    admission: admissionRequest(scope),
    createOnMissing: info.subresource === '' && def.strategy.allowCreateOnUpdate === true,
    finalize: recordUpdate(scope, opts.fieldManager, info.subresource),
    // defaultUpdatedObjectInfo.Preconditions: a uid in the body must match the stored object
    preconditions: typeof meta.uid === 'string' && meta.uid !== '' ? { uid: meta.uid } : undefined,
  });
  return respondWritten(scope, out.created ? 201 : 200, out, admitted.warnings);
}
