// Who is acting: the user info that travels with every request once authentication (and impersonation)
// ran, as k8s.io/apiserver/pkg/authentication/user.Info: name, uid, groups, extra.

export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const SYSTEM_MASTERS = 'system:masters';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS = 'system:anonymous';

/** The playground's default user: a cluster administrator, as kubeadm's `kubernetes-admin` before v1.29. */
export const DEFAULT_ADMIN: UserInfo = { name: 'kubernetes-admin', groups: [SYSTEM_MASTERS, ALL_AUTHENTICATED] };

/** The user of a request without credentials when the cluster runs with anonymous authentication. */
export const ANONYMOUS_USER: UserInfo = { name: ANONYMOUS, groups: [ALL_UNAUTHENTICATED] };

/** The API server's own loopback identity (post-start hooks such as the RBAC bootstrap). */
export const APISERVER_USER: UserInfo = { name: 'system:apiserver', uid: '', groups: [SYSTEM_MASTERS, ALL_AUTHENTICATED] };

const SA_PREFIX = 'system:serviceaccount:';

/** `system:serviceaccount:<namespace>:<name>` */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_PREFIX}${namespace}:${name}`;
}

/** serviceaccount.MakeGroupNames: every service account, and those of its namespace. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/** serviceaccount.SplitUsername: the namespace and name of a service-account user name, or undefined. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/** A service account's user info (with the authenticated group, as the token authenticator adds it). */
export function serviceAccountUser(namespace: string, name: string, uid: string, extra?: Record<string, string[]>): UserInfo {
  return { name: serviceAccountUsername(namespace, name), uid, groups: [...serviceAccountGroups(namespace), ALL_AUTHENTICATED], ...(extra ? { extra } : {}) };
}
