// --runtime-config [K8S server/resourceconfig/helpers.go, kube-apiserver APIEnablementOptions]: turns API
// groups, versions and single resources on and off. Keys: `api/all`, `api/ga`, `api/beta`, `api/alpha`
// (value exactly true or false), `<group>/<version>` and `<group>/<version>/<resource>` (a missing value means
// true; Go's ParseBool otherwise); the core group is `v1` or `api/v1` (any key starting so names the whole
// core version, as kube-apiserver rewrites it to `/v1`); `api/legacy` is dropped. Checked as the real server
// checks them: at start, with its messages. Custom resources are not affected (CRDs are served by the
// apiextensions server whatever the flag says).

import { parseGoBool } from './gates.js';

/**
 * The group versions a v1.33 kube-apiserver has registered (its scheme), whether served here or not: a
 * registered group with an unregistered version is an error, an unknown group is an error, a registered
 * version the playground does not serve is accepted and changes nothing.
 */
const REGISTERED: Record<string, string[]> = {
  '': ['v1'],
  'admissionregistration.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'apiextensions.k8s.io': ['v1', 'v1beta1'],
  'apiregistration.k8s.io': ['v1', 'v1beta1'],
  apps: ['v1', 'v1beta2', 'v1beta1'],
  'authentication.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'authorization.k8s.io': ['v1', 'v1beta1'],
  autoscaling: ['v1', 'v2', 'v2beta1', 'v2beta2'],
  batch: ['v1', 'v1beta1'],
  'certificates.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'coordination.k8s.io': ['v1', 'v1beta1', 'v1alpha2'],
  'discovery.k8s.io': ['v1', 'v1beta1'],
  'events.k8s.io': ['v1', 'v1beta1'],
  'flowcontrol.apiserver.k8s.io': ['v1', 'v1beta3', 'v1beta2', 'v1beta1'],
  'internal.apiserver.k8s.io': ['v1alpha1'],
  'networking.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'node.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  policy: ['v1', 'v1beta1'],
  'rbac.authorization.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'resource.k8s.io': ['v1beta2', 'v1beta1', 'v1alpha3'],
  'scheduling.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'storage.k8s.io': ['v1', 'v1beta1', 'v1alpha1'],
  'storagemigration.k8s.io': ['v1alpha1'],
};

const GA = /^v\d+$/;
const BETA = /^v\d+beta\d+$/;
const ALPHA = /^v\d+alpha\d+$/;
const MATCHERS: [string, (version: string) => boolean][] = [
  ['api/all', () => true],
  ['api/ga', (v) => GA.test(v)],
  ['api/beta', (v) => BETA.test(v)],
  ['api/alpha', (v) => ALPHA.test(v)],
];

/** One `--runtime-config` value (cliflag.ConfigurationMap.Set): `k=v` or `k` (value ""), comma-separated. */
export function parseRuntimeConfig(value: string, into: Record<string, string> = {}): Record<string, string> {
  const out = { ...into };
  for (const s of value.split(',')) {
    if (s.length === 0) continue;
    const eq = s.indexOf('=');
    if (eq < 0) out[s.trim()] = '';
    else out[s.slice(0, eq).trim()] = s.slice(eq + 1).trim();
  }
  return out;
}

export interface ApiEnablement {
  /** Whether a built-in group/version/resource is served. */
  served(group: string, version: string, resource: string): boolean;
}

const gvKey = (g: string, v: string) => `${g}/${v}`;

/** Throws an Error with the real message when the settings are refused; else what is served. */
export function resolveRuntimeConfig(config: Record<string, string>): ApiEnablement {
  // ConvertLegacyGroup: api/legacy is dropped, v1 and api/v1 (with anything after) become /v1
  const overrides: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) {
    if (k === 'api/legacy') continue;
    if (k === 'v1' || k.startsWith('v1/') || k === 'api/v1' || k.startsWith('api/v1/')) overrides['/v1'] = v;
    else overrides[k] = v;
  }
  const keys = Object.keys(overrides);
  const matcherKeys = new Set(MATCHERS.map(([k]) => k));
  // APIEnablementOptions.Validate
  if (overrides['api/all'] === 'false' && keys.length === 1) throw new Error('invalid key with only api/all=false');
  const unknown: string[] = [];
  for (const k of keys) {
    if (matcherKeys.has(k)) continue;
    const tokens = k.split('/');
    if (tokens.length !== 2 && tokens.length !== 3) throw new Error(`runtime-config invalid key ${k}`);
    if (!(tokens[0] in REGISTERED)) unknown.push(tokens[0]);
  }
  if (unknown.length) throw new Error(`unknown api groups ${unknown.join(',')}`);

  // the default resource config: GA and beta versions on (none of the beta versions served here is off by default), alpha off
  const versions = new Map<string, boolean>();
  for (const [g, vs] of Object.entries(REGISTERED)) for (const v of vs) versions.set(gvKey(g, v), !ALPHA.test(v));
  const resources = new Map<string, boolean>();
  const dropResourcesOf = (gv: string) => {
    for (const r of [...resources.keys()]) if (r.startsWith(`${gv}/`)) resources.delete(r);
  };
  // MergeAPIResourceConfigs: api/all, api/ga, api/beta, api/alpha first
  for (const [k, matches] of MATCHERS) {
    const v = overrides[k];
    if (v === undefined) continue;
    if (v !== 'true' && v !== 'false') throw new Error(`invalid value ${k}=${v}`);
    for (const gv of versions.keys()) {
      if (!matches(gv.slice(gv.indexOf('/') + 1))) continue;
      versions.set(gv, v === 'true');
      dropResourcesOf(gv);
    }
  }
  // then group versions, then single resources
  const versionPrefs: [string, boolean][] = [];
  const resourcePrefs: [string, boolean][] = [];
  for (const k of keys) {
    if (matcherKeys.has(k)) continue;
    const tokens = k.split('/');
    const [group, version] = tokens;
    if (!(group in REGISTERED)) continue;
    if (!REGISTERED[group].includes(version)) throw new Error(`group version ${group ? `${group}/${version}` : version} that has not been registered`);
    const raw = overrides[k];
    let enabled = true;
    if (raw !== '') {
      const b = parseGoBool(raw);
      if (b === undefined) throw new Error(`invalid value of ${k}: ${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
      enabled = b;
    }
    if (tokens.length === 2) versionPrefs.push([gvKey(group, version), enabled]);
    else {
      if (tokens[2].toLowerCase() !== tokens[2]) {
        throw new Error(`invalid key ${k}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(tokens[2])}`);
      }
      resourcePrefs.push([`${gvKey(group, version)}/${tokens[2]}`, enabled]);
    }
  }
  for (const [gv, on] of versionPrefs) {
    versions.set(gv, on);
    dropResourcesOf(gv);
  }
  for (const [gvr, on] of resourcePrefs) resources.set(gvr, on);
  return {
    served(group, version, resource) {
      const explicit = resources.get(`${gvKey(group, version)}/${resource}`);
      if (explicit !== undefined) return explicit;
      return versions.get(gvKey(group, version)) ?? true;
    },
  };
}
