// The CEL `authorizer` library asks the cluster's own authorizer (docs: request pipeline): the same answer
// as the request filter and the access reviews. Maps the library's attributes to the authorizer's and its
// allow / deny / no-opinion back.

import type { Authorizer as ClusterAuthorizer } from '../../auth/attributes.js';
import type { UserInfo as RequestUser } from '../../auth/user.js';
import type { Authorizer, AuthorizerAttributes, AuthorizerResult } from './authz.js';
import { authorizerValue, type AuthzValue } from './bind-authz.js';
import type { AuthorizerValue } from './authz.js';

export function celAuthorizer(cluster: ClusterAuthorizer, requester?: RequestUser): Authorizer {
  return {
    authorize(a: AuthorizerAttributes): AuthorizerResult {
      // the requesting user keeps uid and extra; a serviceAccount(...) check names another user
      const user: RequestUser =
        requester && a.user === requester.name ? requester : { name: a.user ?? '', groups: a.groups ?? [] };
      const answer = cluster.authorize(
        a.resourceRequest === false
          ? { user, verb: a.verb, resourceRequest: false, path: a.path ?? '', apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' }
          : {
              user, verb: a.verb, resourceRequest: true, path: '', apiGroup: a.group ?? '', apiVersion: a.apiVersion ?? '*',
              resource: a.resource ?? '', subresource: a.subresource ?? '', namespace: a.namespace ?? '', name: a.name ?? '',
              ...(a.fieldSelector ? { fieldSelector: a.fieldSelector } : {}), ...(a.labelSelector ? { labelSelector: a.labelSelector } : {}),
            },
      );
      const decision = answer.decision === 'no-opinion' ? 'noopinion' : answer.decision;
      return { decision, reason: answer.reason, ...(answer.error !== undefined ? { error: answer.error } : {}) };
    },
  };
}

/** The `authorizer` variable of an admission expression for the request's user. */
export function clusterAuthorizerValue(cluster: ClusterAuthorizer, user: RequestUser): AuthzValue<AuthorizerValue> {
  return authorizerValue({ user: user.name, groups: user.groups }, celAuthorizer(cluster, user));
}
