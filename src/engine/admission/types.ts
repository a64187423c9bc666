// The contract of an admission plugin [K8S admission.Interface]: a plugin declares the operations it runs
// on and mutates the object in place (or throws a Status error); the chain in index.ts runs the plugins in
// the real server's order at one place of the write path (after defaulting, before validation).

import { forbidden, type StatusError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition, StrategyContext } from '../registry/types.js';
import type { Authorizer } from '../auth/attributes.js';
import type { UserInfo } from '../auth/user.js';
import type { AuditAnnotator } from '../audit/log.js';

export type Operation = 'create' | 'update';

/**
 * Who asked, as admission sees it [K8S admission.Attributes GetUserInfo]: the acting user (after
 * impersonation) and the cluster's authorizer (for plugins that ask, e.g. CEL's `authorizer`). Absent for
 * writes the engine makes on its own behalf (bootstrap objects), which admission treats as the API server.
 */
export interface AdmissionRequest {
  user: UserInfo;
  authorizer: Authorizer;
  /**
   * The request's audit event [K8S admission.Attributes AddAnnotation]: `annotate(key, value)` adds an
   * annotation (the first value of a key stays); absent when the request is not audited here.
   */
  audit?: AuditAnnotator;
}

export interface AdmissionAttributes {
  operation: Operation;
  /** The object being written; mutating plugins change it in place. */
  object: KubeObject;
  /** The stored object on update, null on create. Never modified. */
  oldObject: KubeObject | null;
  def: ResourceDefinition;
  namespace: string;
  name: string;
  /** '' for the main resource, else 'status' | 'scale' | ... */
  subresource: string;
  dryRun: boolean;
  /** Reads of current state and the injected environment (ids for generated names). */
  ctx: StrategyContext;
  /** The requesting user and the authorizer; undefined for the engine's own writes. */
  request?: AdmissionRequest;
}

export interface AdmissionResult {
  object: KubeObject;
  warnings: string[];
}

export interface MutatingPlugin {
  /** The real plugin's name, e.g. "Priority". */
  name: string;
  operations: Operation[];
  /**
   * The resources (group, plural) the plugin acts on, when it acts on a few only: the chain then never
   * calls it for other kinds (the plugin still checks the subresource itself). Absent: every resource.
   */
  resources?: readonly (readonly [string, string])[];
  /** Mutates `attrs.object`; may return warnings; throws (or rejects with) a Status error to refuse the request. */
  admit(attrs: AdmissionAttributes): string[] | void | Promise<string[] | void>;
}

/** True when the request is for `group/plural` itself (no subresource). */
export function isMainResource(attrs: AdmissionAttributes, group: string, plural: string): boolean {
  return attrs.def.group === group && attrs.def.plural === plural && attrs.subresource === '';
}

export type ValidatingOperation = Operation | 'delete';

/**
 * What validating admission sees: the object as it will be stored (null on delete), the stored object (null
 * on create). Runs after the kind's validation, before storage (and before a dry run answers).
 */
export interface ValidatingAttributes extends Omit<AdmissionAttributes, 'operation' | 'object'> {
  operation: ValidatingOperation;
  object: KubeObject | null;
  /** Writes stored in one transaction with the request's own (ResourceQuota's charge); absent on dry run. */
  effects?: AdmissionEffects;
}

export interface AdmissionEffects {
  /** Stores `object` (an object read through ctx, changed) together with the request's write. */
  put(group: string, resource: string, namespace: string, name: string, object: KubeObject): void;
}

/**
 * admission.NewForbidden: a 403 naming the request's resource and object (its name, else its generateName,
 * else "Unknown").
 */
export function admissionForbidden(attrs: { def: ResourceDefinition; name: string; object: KubeObject | null }, message: string): StatusError {
  const name = attrs.name || attrs.object?.metadata?.name || attrs.object?.metadata?.generateName || 'Unknown';
  return forbidden({ group: attrs.def.group, resource: attrs.def.plural }, name, message);
}

export interface ValidatingPlugin {
  /** The real plugin's name, e.g. "ValidatingAdmissionPolicy". */
  name: string;
  operations: ValidatingOperation[];
  /** As MutatingPlugin.resources. */
  resources?: readonly (readonly [string, string])[];
  /** Never mutates; may return warnings; throws (or rejects with) a Status error to refuse the request. */
  validate(attrs: ValidatingAttributes): string[] | void | Promise<string[] | void>;
}

/** One stored object, through the store's direct read when the context has one. */
export function lookup(ctx: StrategyContext, group: string, resource: string, namespace: string, name: string): KubeObject | undefined {
  if (ctx.get) return ctx.get(group, resource, namespace, name);
  return ctx.list(group, resource, namespace || undefined).find((o) => o.metadata?.name === name);
}
