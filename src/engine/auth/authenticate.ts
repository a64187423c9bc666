// The authentication layer: who sent the request. A bearer token is a static token (the Node host's
// --token-file) or a service-account token this cluster signed; a token that is neither, or no longer
// valid, is the real 401. A request with no credentials acts as the playground's default user (a cluster
// administrator), or as system:anonymous when the cluster runs with anonymous authentication.

import { StatusError } from '../errors.js';
import type { StaticToken } from './token-file.js';
import { ALL_AUTHENTICATED, ANONYMOUS_USER, DEFAULT_ADMIN, type UserInfo } from './user.js';
import type { EngineRequest } from '../endpoints/wire.js';

export interface AuthenticationOptions {
  /** No-credential requests act as system:anonymous (group system:unauthenticated) instead of the admin. */
  anonymous?: boolean;
  /** Static bearer tokens (kube-apiserver --token-file). */
  staticTokens?: StaticToken[];
}

export interface TokenChecker {
  /** undefined: not this checker's token; {error}: its token, but invalid. */
  check(token: string): UserInfo | { error: string } | undefined;
}

/** apierrors.NewUnauthorized("Unauthorized") as the authentication filter writes it. */
export function unauthorized(): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
}

/** group.AuthenticatedGroupAdder: every authenticated user is in system:authenticated. */
function withAuthenticatedGroup(u: UserInfo): UserInfo {
  return u.groups.includes(ALL_AUTHENTICATED) ? u : { ...u, groups: [...u.groups, ALL_AUTHENTICATED] };
}

/** The bearer token of an `Authorization: Bearer <token>` header; other schemes are not credentials here. */
function bearerToken(request: EngineRequest): string | undefined {
  const header = request.headers.get('Authorization');
  if (header === null) return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return undefined;
  return parts.slice(1).join(' ').trim();
}

export function authenticate(request: EngineRequest, opts: AuthenticationOptions, serviceAccounts: TokenChecker): UserInfo {
  const token = bearerToken(request);
  if (token === undefined) return opts.anonymous ? ANONYMOUS_USER : DEFAULT_ADMIN;
  if (token === '') throw unauthorized();
  const fixed = opts.staticTokens?.find((t) => t.token === token);
  if (fixed) return withAuthenticatedGroup({ name: fixed.user, uid: fixed.uid, groups: [...fixed.groups] });
  const sa = serviceAccounts.check(token);
  if (sa && !('error' in sa)) return withAuthenticatedGroup(sa);
  throw unauthorized();
}
