// The cluster's settings: feature gates and runtime-config, as kube-apiserver's `--feature-gates` and
// `--runtime-config` flags. Hosts pass them as options (the Node host's flags); the playground also keeps them
// with the cluster (one stored record, written by PUT /x-playground/settings), read when the engine starts:
// like the real flags they take effect on the next start. Options given by the host win over the stored ones.

import type { KubeObject } from '../object.js';
import { aggregateMessage, parseFeatureGates, resolveFeatureGates } from './gates.js';
import { parseRuntimeConfig, resolveRuntimeConfig, type ApiEnablement } from './runtime-config.js';

/** Storage key of the stored settings: outside every resource's key prefix. */
export const SETTINGS_KEY = '/x-playground/settings//cluster';

/** The settings as typed, in the flags' syntax (`A=true,B=false`; `batch/v1=false,apps/v1/deployments=false`). */
export interface SettingsText {
  featureGates: string;
  runtimeConfig: string;
  /** The audit policy (audit.k8s.io/v1 Policy, YAML or JSON); empty: the host's default. */
  auditPolicy?: string;
}

export function storedSettingsText(obj: KubeObject | undefined): SettingsText {
  const o = (obj ?? {}) as Record<string, unknown>;
  return {
    featureGates: typeof o.featureGates === 'string' ? o.featureGates : '',
    runtimeConfig: typeof o.runtimeConfig === 'string' ? o.runtimeConfig : '',
    auditPolicy: typeof o.auditPolicy === 'string' ? o.auditPolicy : '',
  };
}

export function settingsObject(text: SettingsText): KubeObject {
  return { apiVersion: 'x-playground/v1', kind: 'ClusterSettings', metadata: { name: 'cluster' }, ...text } as unknown as KubeObject;
}

/** pflag's wrapping of a flag value's error. */
export function flagError(flag: string, value: string, message: string): string {
  return `invalid argument ${JSON.stringify(value)} for "--${flag}" flag: ${message}`;
}

export interface EffectiveSettings {
  featureGates: Record<string, boolean>;
  enablement: ApiEnablement;
  warnings: string[];
}

/**
 * The gates and API enablement in effect for the given gate settings and runtime-config map; throws an Error
 * with the message kube-apiserver stops with.
 */
export function effectiveSettings(gates: Record<string, boolean>, runtimeConfig: Record<string, string>, gatesText?: string): EffectiveSettings {
  const r = resolveFeatureGates(gates);
  if (r.errors.length) {
    const msg = aggregateMessage(r.errors);
    throw new Error(gatesText === undefined ? msg : flagError('feature-gates', gatesText, msg));
  }
  return { featureGates: r.enabled, enablement: resolveRuntimeConfig(runtimeConfig), warnings: r.warnings };
}

/** Checks settings as typed (the UI's and the stored form); throws the Node host's message for the same flags. */
export function checkSettingsText(text: SettingsText): EffectiveSettings {
  let gates: Record<string, boolean>;
  try {
    gates = parseFeatureGates(text.featureGates);
  } catch (e) {
    throw new Error(flagError('feature-gates', text.featureGates, (e as Error).message));
  }
  return effectiveSettings(gates, parseRuntimeConfig(text.runtimeConfig), text.featureGates);
}
