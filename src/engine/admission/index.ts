// Mutating admission: the one entry the write path calls, after defaulting and before validation (the
// real server's order: docs/design.md, request pipeline). Plugins run in the order of the real server's
// default plugin list; each declares the operations it handles.

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

/** Mutating admission (async: a plugin may call out, as the admission webhooks do). */
export async function mutatingAdmission(attrs: AdmissionAttributes, plugins: readonly MutatingPlugin[] = mutatingPlugins): Promise<AdmissionResult> {
  const warnings: string[] = [];
  for (const p of plugins) {
    if (!p.operations.includes(attrs.operation)) continue;
    const w = await p.admit(attrs);
    if (w) warnings.push(...w);
  }
  return { object: attrs.object, warnings };
}

/**
 * The enabled validating plugins, in the real server's order (validating admission runs after validation):
 * PodSecurity, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota (always last).
 */
export const validatingPlugins: readonly ValidatingPlugin[] = [podSecurity, validatingAdmissionPolicy, validatingAdmissionWebhook, resourceQuota];

/** Validating admission: the one entry the write path calls after the kind's validation, before storage. */
export async function validatingAdmission(attrs: ValidatingAttributes, plugins: readonly ValidatingPlugin[] = validatingPlugins): Promise<string[]> {
  const warnings: string[] = [];
  for (const p of plugins) {
    if (!p.operations.includes(attrs.operation)) continue;
    const w = await p.validate(attrs);
    if (w) warnings.push(...w);
  }
  return warnings;
}
