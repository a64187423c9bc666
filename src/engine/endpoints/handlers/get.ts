// GET of one object (and of its status subresource) [K8S handlers/get.go].

import { badRequest, tooLargeResourceVersion } from '../../errors.js';
import { respond } from '../responders.js';
import { parseIncludeObject, toTable } from '../table.js';
import type { Scope } from '../scope.js';
import { parseRevision } from './list.js';

export function handleGet(scope: Scope): Response {
  const { def, core, info } = scope;
  const rv = scope.query.get('resourceVersion') ?? '';
  if (rv !== '' && rv !== '0') {
    // Not older than: the cache always holds the newest state; a future version cannot be served yet
    const requested = parseRevision(rv);
    if (requested > core.store.state.revision) throw tooLargeResourceVersion(core.store.state.revision, requested);
  }
  if (info.subresource && info.subresource !== 'status') throw badRequest(`unsupported subresource ${info.subresource}`);
  const obj = core.store.get(def, info.namespace, info.name);
  const neg = scope.negotiated;
  if (neg.as === 'Table') {
    const include = parseIncludeObject(scope.query);
    const meta = { resourceVersion: obj.metadata?.resourceVersion };
    return respond(200, toTable(def, [obj], meta, core.env.clock.now(), include, neg.asVersion!, neg.asGroup!), { negotiated: neg, pretty: scope.pretty });
  }
  if (neg.as === 'PartialObjectMetadata') {
    return respond(200, { kind: 'PartialObjectMetadata', apiVersion: `${neg.asGroup}/${neg.asVersion}`, metadata: obj.metadata }, { negotiated: neg, pretty: scope.pretty });
  }
  return respond(200, obj, { negotiated: neg, pretty: scope.pretty });
}
