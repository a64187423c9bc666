// Helpers of the ValidatingAdmissionPolicy wire tests: create policies and bindings, and the exact Status a
// denial answers (admission.NewForbidden with the decision's reason and code).
import { expect } from 'vitest';
import type { TestClient } from '../../testing/harness.js';

export const VAP = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
export const VAPB = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';
export const CM = '/api/v1/namespaces/default/configmaps';

export async function policy(c: TestClient, name: string, spec: Record<string, unknown>): Promise<any> {
  const r = await c.req('POST', VAP, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

export async function binding(c: TestClient, name: string, spec: Record<string, unknown>): Promise<any> {
  const r = await c.req('POST', VAPB, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { validationActions: ['Deny'], ...spec } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** A policy `name` with one Deny binding `name-binding`. */
export async function denyPolicy(c: TestClient, name: string, spec: Record<string, unknown>, bindingSpec: Record<string, unknown> = {}): Promise<void> {
  await policy(c, name, spec);
  await binding(c, `${name}-binding`, { policyName: name, ...bindingSpec });
}

export function rule(resources: string[], more: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources, ...more };
}

export const constraints = (resources: string[], more: Record<string, unknown> = {}) => ({ resourceRules: [rule(resources, more)] });

export const cm = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels ? { labels } : {}) }, data,
});

/** The Warning header's entries. */
export const warnings = (h: Headers) => (h.get('warning') ?? '').split(/,\s*(?=299)/).filter(Boolean);

/** The Status of a denial: `<resource> "<name>" is forbidden: <message>`, the message as the one cause. */
export function denied(gr: { group: string; resource: string }, name: string, message: string, reason = 'Invalid', code = 422) {
  const q = gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `${q} "${name}" is forbidden: ${message}`,
    reason,
    details: { name, ...(gr.group ? { group: gr.group } : {}), kind: gr.resource, causes: [{ message }] },
    code,
  };
}

export const CONFIGMAPS = { group: '', resource: 'configmaps' };
