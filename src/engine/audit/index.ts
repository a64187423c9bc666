// The audit layer: policy (policy.ts), events and their sinks (log.ts), the audit.k8s.io/v1 types (types.ts).
export * from './types.js';
export { PolicyError, PolicyEvaluator, parsePolicy, validatePolicy, ruleMatches, PLAYGROUND_DEFAULT_POLICY } from './policy.js';
export {
  AUDIT_RING_SIZE, AuditContext, AuditLog, NO_AUDIT, annotateDeprecated, auditContextOf, carryResponseObject, failedAuthenticationMessage,
  isLongRunning, noteResponseObject, type AuditAnnotator, type AuditSink,
} from './log.js';
