// The NamespaceLifecycle admission plugin [K8S plugin/pkg/admission/namespace/lifecycle], first in the real
// plugin order: content can only be created in a namespace that exists and is not terminating, and the
// immortal namespaces cannot be deleted. As a plugin of the mutating chain it checks creates; the
// namespaces resource calls `admitNamespaceLifecycle` for its own delete, where the real namespace storage
// runs its delete admission (inside its delete, after the preconditions).

import { forbidden, notFound } from '../errors.js';
import type { KubeObject } from '../object.js';
import { lookup, type MutatingPlugin } from './types.js';

export const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

export interface LifecycleAttributes {
  operation: 'CREATE' | 'DELETE';
  group: string;
  resource: string;
  namespaced: boolean;
  /** The request's namespace ('' for cluster-scoped requests). */
  namespace: string;
  /** The object's name from the path ('' on create). */
  name: string;
  object?: KubeObject;
  /** The namespace object as stored, undefined when missing. */
  lookupNamespace(name: string): KubeObject | undefined;
}

export function admitNamespaceLifecycle(a: LifecycleAttributes): void {
  if (a.operation === 'DELETE' && a.group === '' && a.resource === 'namespaces' && IMMORTAL_NAMESPACES.has(a.name)) {
    throw forbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
  }
  if (a.operation !== 'CREATE' || !a.namespaced || !a.namespace) return;
  const ns = a.lookupNamespace(a.namespace);
  if (!ns) throw notFound({ group: '', resource: 'namespaces' }, a.namespace);
  if ((ns.status as { phase?: string } | undefined)?.phase !== 'Terminating') return;
  // admission.NewForbidden names the object (its generateName before a name is generated, else "Unknown")
  const name = a.name || a.object?.metadata?.name || a.object?.metadata?.generateName || 'Unknown';
  const gr = { group: a.group, resource: a.resource };
  const err = forbidden(gr, name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
  err.status.details = { ...(err.status.details ?? {}), causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }] };
  throw err;
}

export const namespaceLifecycle: MutatingPlugin = {
  name: 'NamespaceLifecycle',
  operations: ['create'],
  admit(attrs) {
    admitNamespaceLifecycle({
      operation: 'CREATE', group: attrs.def.group, resource: attrs.def.plural, namespaced: attrs.def.namespaced,
      namespace: attrs.def.namespaced ? attrs.namespace : '', name: '', object: attrs.object,
      lookupNamespace: (n) => lookup(attrs.ctx, '', 'namespaces', '', n),
    });
  },
};
