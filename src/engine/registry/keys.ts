// Storage keys, etcd-style: one prefix per group/resource so that a list is a prefix scan.
//   /<group or "core">/<resource>/<namespace>/<name>   namespaced
//   /<group or "core">/<resource>//<name>              cluster-scoped (empty namespace segment)
// The version is not part of the key: every version of a resource reads and writes the same objects.

export function resourcePrefix(group: string, resource: string): string {
  return `/${group || 'core'}/${resource}/`;
}

export function namespacePrefix(group: string, resource: string, namespace: string): string {
  return `${resourcePrefix(group, resource)}${namespace}/`;
}

export function objectKey(group: string, resource: string, namespace: string, name: string): string {
  return `${resourcePrefix(group, resource)}${namespace}/${name}`;
}

export function parseKey(key: string): { group: string; resource: string; namespace: string; name: string } {
  const [, g, resource, namespace, name] = key.split('/');
  return { group: g === 'core' ? '' : g, resource, namespace, name };
}
