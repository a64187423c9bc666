// The contract of an admission plugin [K8S admission.Interface]: a plugin declares the operations it runs
// on and mutates the object in place (or throws a Status error); the chain in index.ts runs the plugins in
// the real server's order at one place of the write path (after defaulting, before validation).

import type { KubeObject } from '../object.js';
import type { ResourceDefinition, StrategyContext } from '../registry/types.js';

export type Operation = 'create' | 'update';

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
}

export interface AdmissionResult {
  object: KubeObject;
  warnings: string[];
}

export interface MutatingPlugin {
  /** The real plugin's name, e.g. "Priority". */
  name: string;
  operations: Operation[];
  /** Mutates `attrs.object`; may return warnings; throws a Status error to refuse the request. */
  admit(attrs: AdmissionAttributes): string[] | void;
}

/** True when the request is for `group/plural` itself (no subresource). */
export function isMainResource(attrs: AdmissionAttributes, group: string, plural: string): boolean {
  return attrs.def.group === group && attrs.def.plural === plural && attrs.subresource === '';
}
