// The audit.k8s.io/v1 types this engine writes and reads [K8S apiserver apis/audit/v1]: the Event of one
// request stage and the Policy that decides how much of a request is recorded.

/** How much of a request an event carries, from nothing to both bodies. */
export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

export const LEVELS: Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/** The stage of the request an event was written at (Panic is never written here). */
export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const STAGES: Stage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

/** True when level `a` records less than level `b` (Level.Less). */
export function levelLess(a: Level, b: Level): boolean {
  return LEVELS.indexOf(a) < LEVELS.indexOf(b);
}

/** authentication/v1 UserInfo as an event carries it (empty fields left out). */
export interface EventUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** metav1.Status as an event records it: code always, the rest for failures. */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: EventUser;
  impersonatedUser?: EventUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy {
  apiVersion: 'audit.k8s.io/v1';
  kind: 'Policy';
  metadata?: Record<string, unknown>;
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** What the policy decided for one request (RequestAuditConfig). */
export interface RequestAuditConfig {
  level: Level;
  omitStages: Stage[];
  omitManagedFields: boolean;
}
