// POST /x-playground/corrupt?path=<API path of one object>: a playground-only SIMULATION of a corrupt object.
// The object's stored value is replaced by bytes the storage decoder cannot read (storage/undecodable.ts), so
// that the real server's behaviour around unreadable objects can be seen: reads and normal deletes fail with
// the storage layer's corrupt-object error, and only a delete with
// ignoreStoreReadErrorWithClusterBreakingPotential (gate AllowUnsafeMalformedObjectDeletion, verbs `delete`
// and `unsafe-delete-ignore-read-errors`) removes it. Not part of the Kubernetes API: it lives under a prefix
// the real server does not have. The caller must be allowed to update the object.

import { badRequest, notFound } from '../errors.js';
import type { ResourceRegistry } from '../registry/resources.js';
import type { ResourceDefinition } from '../registry/types.js';
import { requestInfo, type ResourceRequestInfo } from './request-info.js';

export const PLAYGROUND_CORRUPT_PATH = '/x-playground/corrupt';

export interface CorruptTarget {
  def: ResourceDefinition;
  info: ResourceRequestInfo;
  /** The object's API path (authorization names it). */
  path: string;
}

/** The object a corrupt request addresses, from its `path` query parameter. */
export function corruptTarget(registry: ResourceRegistry, query: URLSearchParams): CorruptTarget {
  const path = query.get('path');
  if (!path) throw badRequest('the object to corrupt is required: ?path=<API path of the object>, e.g. /api/v1/namespaces/default/configmaps/x');
  const info = requestInfo('PUT', path, new URLSearchParams());
  if (!info.isResourceRequest || !info.name || info.subresource) throw badRequest(`${JSON.stringify(path)} is not the API path of one object`);
  const def = registry.lookup(info.group, info.version, info.resource);
  if (!def || (def.namespaced && !info.namespace)) throw notFound({ group: info.group, resource: info.resource }, info.name);
  return { def, info, path };
}

/** The answer: a Success Status saying what was done. */
export function corruptedStatus(def: ResourceDefinition, namespace: string, name: string, changed: boolean): unknown {
  const what = `${def.group ? `${def.plural}.${def.group}` : def.plural} "${name}"${def.namespaced ? ` in namespace "${namespace}"` : ''}`;
  const details: Record<string, unknown> = { name };
  if (def.group) details.group = def.group;
  details.kind = def.plural;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    message: changed
      ? `simulation: the stored value of ${what} is now undecodable; reads fail as for a corrupt object in etcd`
      : `simulation: the stored value of ${what} was already undecodable`,
    details,
    code: 200,
  };
}
