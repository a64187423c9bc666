// PUT of one object or of its status subresource [K8S handlers/update.go].

import { badRequest } from '../../errors.js';
import { respond } from '../responders.js';
import { decodeObjectBody, expectKind, parseWriteOptions, type Scope } from '../scope.js';
import { fieldValidate, recordUpdate, typeCheck } from '../pipeline.js';
import { plain } from './create.js';

export async function handleUpdate(scope: Scope): Promise<Response> {
  const { def, core, info } = scope;
  const opts = parseWriteOptions(scope, 'UpdateOptions');
  const body = await decodeObjectBody(scope);
  const input = expectKind(scope, body.value);
  const meta = input.metadata ?? {};
  if (meta.name !== undefined && meta.name !== info.name) {
    throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${info.name})`);
  }
  if (def.namespaced && meta.namespace && meta.namespace !== info.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  typeCheck(def, input);
  const admitted = fieldValidate(def, input, body.duplicates, opts.fieldValidation, { operation: 'update', mediaType: body.format === 'yaml' ? 'yaml' : 'json' });
  const desired = admitted.object;
  (desired.metadata ??= {}).name = info.name;
  const out = await core.store.update(def, info.namespace, info.name, info.subresource, () => desired, {
    dryRun: opts.dryRun,
    createOnMissing: info.subresource === '' && def.strategy.allowCreateOnUpdate === true,
    finalize: recordUpdate(scope, opts.fieldManager, info.subresource),
  });
  return respond(out.created ? 201 : 200, out.object, { negotiated: plain(scope), pretty: scope.pretty, warnings: [...admitted.warnings, ...out.warnings] });
}
