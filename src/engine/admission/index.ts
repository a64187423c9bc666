// Mutating admission: the one entry the write path calls, after defaulting and before validation (the
// real server's order: docs/design.md, request pipeline). Plugins run in the order of the real server's
// default plugin list; each declares the operations it handles.

import type { ResourceDefinition } from '../registry/types.js';
import type { AdmissionAttributes, AdmissionResult, MutatingPlugin, ValidatingAttributes, ValidatingPlugin } from './types.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { limitRanger } from './limit-ranger.js';
import { serviceAccount } from './service-account.js';
import { taintNodesByCondition } from './taint-nodes-by-condition.js';
import { priority } from './priority.js';
import { defaultTolerationSeconds } from './default-toleration-seconds.js';
import { validatingAdmissionPolicy } from './policy/index.js';
import { resourceQuota } from './resource-quota.js';
import { podSecurity } from './pod-security/index.js';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from './webhook/index.js';

export type { AdmissionAttributes, AdmissionEffects, AdmissionRequest, AdmissionResult, MutatingPlugin, Operation, ValidatingAttributes, ValidatingOperation, ValidatingPlugin } from './types.js';

/** The enabled mutating plugins, in the real server's order. */
export const mutatingPlugins: readonly MutatingPlugin[] = [namespaceLifecycle, limitRanger, serviceAccount, taintNodesByCondition, priority, defaultTolerationSeconds, mutatingAdmissionWebhook];

/**
 * The plugins of a chain that can act on a write of `def` with `operation`, in chain order: those declaring
 * the operation and, when they name the resources they handle, naming this one. Made once per kind,
 * operation and chain (plugin lists and definitions never change), so a request does not scan the chain.
 */
const applicableCache = new WeakMap<ResourceDefinition, Map<string, WeakMap<readonly unknown[], readonly unknown[]>>>();

function applicable<P extends MutatingPlugin | ValidatingPlugin>(def: ResourceDefinition, operation: string, plugins: readonly P[]): readonly P[] {
  let byOp = applicableCache.get(def);
  if (!byOp) applicableCache.set(def, (byOp = new Map()));
  let byChain = byOp.get(operation);
  if (!byChain) byOp.set(operation, (byChain = new WeakMap()));
  let list = byChain.get(plugins) as readonly P[] | undefined;
  if (!list) {
    list = plugins.filter((p) => (p.operations as string[]).includes(operation) && (!p.resources || p.resources.some(([g, r]) => g === def.group && r === def.plural)));
    byChain.set(plugins, list);
  }
  return list;
}

function isThenable<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * Mutating admission. A plugin may call out (the admission webhooks do) and answer a promise; while every
 * plugin answers at once the chain does too, without a promise per plugin (the caller awaits a promise only
 * when it gets one). A plugin's error is thrown as it is either way.
 */
export function mutatingAdmission(attrs: AdmissionAttributes, plugins: readonly MutatingPlugin[] = mutatingPlugins): AdmissionResult | Promise<AdmissionResult> {
  const warnings: string[] = [];
  const list = applicable(attrs.def, attrs.operation, plugins);
  for (let i = 0; i < list.length; i++) {
    const w = list[i].admit(attrs);
    if (isThenable(w)) return admitRest(attrs, list, i, w, warnings);
    if (w) warnings.push(...w);
  }
  return { object: attrs.object, warnings };
}

/** The rest of the mutating chain once a plugin has answered a promise: each plugin after the one before. */
async function admitRest(attrs: AdmissionAttributes, list: readonly MutatingPlugin[], at: number, pending: Promise<string[] | void>, warnings: string[]): Promise<AdmissionResult> {
  const first = await pending;
  if (first) warnings.push(...first);
  for (let i = at + 1; i < list.length; i++) {
    const w = await list[i].admit(attrs);
    if (w) warnings.push(...w);
  }
  return { object: attrs.object, warnings };
}

/**
 * The enabled validating plugins, in the real server's order (validating admission runs after validation):
 * PodSecurity, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota (always last).
 */
export const validatingPlugins: readonly ValidatingPlugin[] = [podSecurity, validatingAdmissionPolicy, validatingAdmissionWebhook, resourceQuota];

/** Validating admission: the one entry the write path calls after the kind's validation, before storage (at once when every plugin answers at once, as mutatingAdmission). */
export function validatingAdmission(attrs: ValidatingAttributes, plugins: readonly ValidatingPlugin[] = validatingPlugins): string[] | Promise<string[]> {
  const warnings: string[] = [];
  const list = applicable(attrs.def, attrs.operation, plugins);
  for (let i = 0; i < list.length; i++) {
    const w = list[i].validate(attrs);
    if (isThenable(w)) return validateRest(attrs, list, i, w, warnings);
    if (w) warnings.push(...w);
  }
  return warnings;
}

async function validateRest(attrs: ValidatingAttributes, list: readonly ValidatingPlugin[], at: number, pending: Promise<string[] | void>, warnings: string[]): Promise<string[]> {
  const first = await pending;
  if (first) warnings.push(...first);
  for (let i = at + 1; i < list.length; i++) {
    const w = await list[i].validate(attrs);
    if (w) warnings.push(...w);
  }
  return warnings;
}
