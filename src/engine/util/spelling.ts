// Identifier spelling (docs/design.md 3): `k8s.io` is canonical; every `svc` spelling of the spec is an alias.

/** `apps.svc.io` -> `apps.k8s.io`; other names unchanged. */
export function canonicalGroup(group: string): string {
  if (group.endsWith('.svc.io')) return group.slice(0, -'.svc.io'.length) + '.k8s.io';
  return group;
}

/** `svc.io/deprecated` -> `k8s.io/deprecated` for annotation keys and similar prefixes. */
export function canonicalPrefixedName(name: string): string {
  return name.replace(/(^|\.)svc\.io\//, '$1k8s.io/');
}

/** True when the client used the `svc` spelling, so responses can mirror it. */
export function usesSvcSpelling(group: string): boolean {
  return group.endsWith('.svc.io') || group === 'svc.io';
}

/** Rewrites a canonical group into the spelling the client used. */
export function mirrorGroup(canonical: string, clientSpelling: string): string {
  if (usesSvcSpelling(clientSpelling) && canonical.endsWith('.k8s.io')) return canonical.slice(0, -'.k8s.io'.length) + '.svc.io';
  return canonical;
}
