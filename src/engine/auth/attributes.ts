// The authorizer contract (k8s.io/apiserver/pkg/authorization/authorizer): attributes of one request and
// an answer allow / deny / no-opinion with a reason. One authorizer serves the request filter, the access
// reviews, escalation checks and the CEL `authorizer` library.

import type { UserInfo } from './user.js';

export interface Attributes {
  user: UserInfo;
  verb: string;
  /** False for non-resource paths (`/version`, `/healthz`, ...). */
  resourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector?: string;
  labelSelector?: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizerAnswer {
  decision: Decision;
  reason: string;
  /** An evaluation error (the SubjectAccessReview's `evaluationError`). */
  error?: string;
}

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface RulesAnswer {
  resourceRules: { verbs: string[]; apiGroups: string[]; resources: string[]; resourceNames?: string[] }[];
  nonResourceRules: { verbs: string[]; nonResourceURLs: string[] }[];
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): AuthorizerAnswer;
  /** What a user may do in a namespace (SelfSubjectRulesReview). */
  rulesFor(user: UserInfo, namespace: string): RulesAnswer;
}

/** Attributes of a resource check with defaults for what is not given. */
export function resourceAttributes(user: UserInfo, a: Partial<Omit<Attributes, 'user' | 'resourceRequest'>> & { verb: string }): Attributes {
  return {
    user,
    verb: a.verb,
    resourceRequest: true,
    path: a.path ?? '',
    apiGroup: a.apiGroup ?? '',
    apiVersion: a.apiVersion ?? '',
    resource: a.resource ?? '',
    subresource: a.subresource ?? '',
    namespace: a.namespace ?? '',
    name: a.name ?? '',
    ...(a.fieldSelector ? { fieldSelector: a.fieldSelector } : {}),
    ...(a.labelSelector ? { labelSelector: a.labelSelector } : {}),
  };
}

export function nonResourceAttributes(user: UserInfo, verb: string, path: string): Attributes {
  return { user, verb, resourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
}
