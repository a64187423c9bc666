// The acting user of the playground: the cluster's administrator (no impersonation: a request without
// credentials acts as `kubernetes-admin` in `system:masters`), a user name with groups, or a service account.
// Every UI request carries the matching impersonation headers; the choice is kept per cluster in
// localStorage. Pure helpers, tested without a browser.

export type ActingUser =
  | { kind: 'admin' }
  | { kind: 'user'; name: string; groups: string[] }
  | { kind: 'serviceaccount'; namespace: string; name: string };

export const ADMIN: ActingUser = { kind: 'admin' };

const KEY_PREFIX = 'kube-playground:acting-user:';

export function actingUserKey(cluster: string): string {
  return `${KEY_PREFIX}${cluster}`;
}

/** The user name the server will see (`system:serviceaccount:ns:name` for a service account). */
export function actingUserName(u: ActingUser): string | undefined {
  if (u.kind === 'user') return u.name;
  if (u.kind === 'serviceaccount') return `system:serviceaccount:${u.namespace}:${u.name}`;
  return undefined;
}

/**
 * The impersonation headers for `u`: none for the administrator; `Impersonate-User` plus one
 * `Impersonate-Group` per group for a user; `Impersonate-User: system:serviceaccount:ns:name` alone for a
 * service account (the server then adds the service-account groups, as the real impersonation filter does).
 */
export function impersonationHeaders(u: ActingUser): [string, string][] {
  const name = actingUserName(u);
  if (name === undefined) return [];
  const out: [string, string][] = [['Impersonate-User', name]];
  if (u.kind === 'user') for (const g of u.groups) out.push(['Impersonate-Group', g]);
  return out;
}

/** Sets the impersonation headers on `headers` unless the caller already set `Impersonate-User` itself. */
export function withImpersonation(headers: Headers, u: ActingUser): Headers {
  if (headers.has('Impersonate-User') || headers.has('Impersonate-Group')) return headers;
  for (const [k, v] of impersonationHeaders(u)) headers.append(k, v);
  return headers;
}

/** A stable key of the identity (changes when the acting user changes). */
export function actingUserId(u: ActingUser): string {
  return u.kind === 'admin' ? 'admin' : JSON.stringify(u);
}

/** `jane, team-a` -> ['jane', 'team-a'] (blank entries and duplicates dropped). */
export function parseGroups(text: string): string[] {
  return [...new Set(text.split(',').map((g) => g.trim()).filter(Boolean))];
}

/** Problems with a choice before it is used (empty when fine). */
export function validateActingUser(u: ActingUser): string[] {
  const problems: string[] = [];
  if (u.kind === 'user') {
    if (!u.name.trim()) problems.push('a user name is required');
    if (u.name.startsWith('system:serviceaccount:')) problems.push('choose "Service account" to act as a service account');
    if (/[\r\n]/.test(u.name) || u.groups.some((g) => /[\r\n,]/.test(g))) problems.push('names may not contain line breaks or commas');
  } else if (u.kind === 'serviceaccount') {
    if (!u.namespace.trim()) problems.push('a namespace is required');
    if (!u.name.trim()) problems.push('a service account name is required');
    if (/[:\s]/.test(u.namespace + u.name)) problems.push('namespace and name may not contain ":" or spaces');
  }
  return problems;
}

/** Reads a stored choice; anything malformed is the administrator. */
export function parseActingUser(raw: string | null | undefined): ActingUser {
  if (!raw) return ADMIN;
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    if (v?.kind === 'user' && typeof v.name === 'string' && Array.isArray(v.groups) && v.groups.every((g) => typeof g === 'string')) {
      const u: ActingUser = { kind: 'user', name: v.name, groups: v.groups as string[] };
      return validateActingUser(u).length ? ADMIN : u;
    }
    if (v?.kind === 'serviceaccount' && typeof v.namespace === 'string' && typeof v.name === 'string') {
      const u: ActingUser = { kind: 'serviceaccount', namespace: v.namespace, name: v.name };
      return validateActingUser(u).length ? ADMIN : u;
    }
  } catch {
    // not JSON
  }
  return ADMIN;
}

export function serializeActingUser(u: ActingUser): string | undefined {
  return u.kind === 'admin' ? undefined : JSON.stringify(u);
}

/** Loads the cluster's acting user from `storage` (localStorage in the app). */
export function loadActingUser(storage: Pick<Storage, 'getItem'> | undefined, cluster: string): ActingUser {
  try {
    return parseActingUser(storage?.getItem(actingUserKey(cluster)));
  } catch {
    return ADMIN;
  }
}

export function saveActingUser(storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined, cluster: string, u: ActingUser): void {
  try {
    const v = serializeActingUser(u);
    if (v === undefined) storage?.removeItem(actingUserKey(cluster));
    else storage?.setItem(actingUserKey(cluster), v);
  } catch {
    // not kept (no storage)
  }
}
