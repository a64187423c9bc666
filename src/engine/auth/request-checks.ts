// The checks a handler makes beyond the request's own verb, as the real handlers do: an update or apply
// that creates the object also needs `create` (handlers' withAuthorization on createValidation), and a
// delete with ignoreStoreReadErrorWithClusterBreakingPotential also needs `unsafe-delete-ignore-read-errors`.

import { goQuote } from '../codec/go-format.js';
import type { ResourceRequestInfo } from '../endpoints/request-info.js';
import { canonicalGroup } from '../util/spelling.js';
import { resourceAttributes, type Authorizer } from './attributes.js';
import { forbiddenStatus } from './authorize.js';
import type { UserInfo } from './user.js';

export interface RequestAuthorization {
  user: UserInfo;
  /** The cluster's authorizer (admission plugins ask it, e.g. CEL's `authorizer` variable). */
  authorizer: Authorizer;
  /** An update or server-side apply is about to create the object. */
  createOnUpdate(): void;
  /** A delete asks to ignore store read errors (unsafe deletion of a corrupt object). */
  unsafeDelete(): void;
}

export function requestAuthorization(user: UserInfo, info: ResourceRequestInfo, authorizer: Authorizer): RequestAuthorization {
  const group = canonicalGroup(info.group);
  const base = { apiGroup: group, apiVersion: info.version, resource: info.resource, namespace: info.namespace, name: info.name };
  return {
    user,
    authorizer,
    createOnUpdate() {
      const answer = authorizer.authorize(resourceAttributes(user, { ...base, verb: 'create', subresource: info.subresource }));
      if (answer.decision === 'allow') return;
      throw forbiddenStatus(group, info.resource, info.name, answer.reason);
    },
    unsafeDelete() {
      const verb = 'unsafe-delete-ignore-read-errors';
      const answer = authorizer.authorize(resourceAttributes(user, { ...base, verb }));
      if (answer.decision === 'allow') return;
      throw forbiddenStatus(group, info.resource, info.name, `not permitted to do ${goQuote(verb)}, reason: ${answer.reason}`);
    },
  };
}
