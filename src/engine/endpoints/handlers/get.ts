// GET of one object (and of its status subresource) [K8S handlers/get.go, storage/cacher Get].
// resourceVersion: unset = Most Recent, "0" = Any, other = Not older than (a version the cluster has not
// reached yet is waited for up to 3 s, then 504 "Too large resource version" with Retry-After).

import { StatusError, badRequest, notAcceptable } from '../../errors.js';
import { notFound } from '../../errors.js';
import type { Scope } from '../scope.js';
import { parseIncludeObject, toTable } from '../table.js';
import { bodyResponse, jsonBodyResponse } from '../negotiation/encode.js';
import { TOO_LARGE_RV_WAIT_MS, goTypeName, objectJsonBody, presentShallow, revisionSyntaxError, waitForRevision } from './list.js';
import type { EngineResponse } from '../wire.js';

/** A malformed resourceVersion on get reaches the client as the storage layer's raw error: a 500 without reason. */
function getRevisionError(rv: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: revisionSyntaxError(rv), code: 500 });
}

export async function handleGet(scope: Scope): Promise<EngineResponse> {
  const { def, core, info } = scope;
  const rv = scope.query.get('resourceVersion') ?? '';
  if (info.subresource && !['status', 'approval', 'ephemeralcontainers', 'resize'].includes(info.subresource)) throw badRequest(`unsupported subresource ${info.subresource}`);
  if (rv !== '' && rv !== '0') {
    if (!/^\d+$/.test(rv) || rv.length > 20) throw getRevisionError(rv);
    const requested = Number(rv);
    if (requested > core.store.state.revision) await waitForRevision(core, requested, TOO_LARGE_RV_WAIT_MS, scope.request.signal);
  }
  const item = core.store.state.get(core.store.key(def, info.namespace, info.name));
  if (!item) core.store.assertReadable(def, info.namespace, info.name);
  if (!item) throw notFound({ group: def.group, resource: def.plural }, info.name);
  const neg = scope.negotiated;
  if (neg.format === 'json' && !neg.as && !scope.pretty) {
    // compact JSON: the object's serialization kept with the stored object (as list items are), the
    // presented object made only if the audit layer asks for it
    const stored = item.object;
    return jsonBodyResponse(objectJsonBody(def, stored), neg.contentType, () => presentShallow(def, stored));
  }
  const obj = presentShallow(def, item.object);
  if (neg.as === 'Table') {
    const include = parseIncludeObject(scope.query);
    const meta = { resourceVersion: obj.metadata?.resourceVersion };
    return bodyResponse(toTable(def, [obj], meta, core.env.clock.now(), include, neg.asVersion!, neg.asGroup!), neg, scope.pretty);
  }
  if (neg.as === 'PartialObjectMetadataList') {
    throw notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(def, false)})`);
  }
  if (neg.as === 'PartialObjectMetadata') {
    return bodyResponse({ kind: 'PartialObjectMetadata', apiVersion: `${neg.asGroup}/${neg.asVersion}`, metadata: obj.metadata }, neg, scope.pretty);
  }
  return bodyResponse(obj, neg, scope.pretty);
}
