// The set of served resources: built-in definitions plus those CRDs add at runtime. Discovery, OpenAPI
// and the router read it; it changes within the request cycle that creates or deletes a CRD.

import { canonicalGroup } from '../util/spelling.js';
import type { ResourceDefinition } from './types.js';

/** The order in which the real server lists its groups in /apis (kube-apiserver's group priority). */
const GROUP_ORDER = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'resource.k8s.io',
];

/** Kubernetes version ordering: GA > beta > alpha, then by number (k8s.io/apimachinery/pkg/version). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return { ok: false, major: 0, stage: 0, minor: 0 };
    return { ok: true, major: Number(m[1]), stage: m[2] === 'alpha' ? 1 : m[2] === 'beta' ? 2 : 3, minor: Number(m[3] ?? 0) };
  };
  const x = parse(a);
  const y = parse(b);
  if (x.ok !== y.ok) return x.ok ? -1 : 1;
  if (!x.ok) return a < b ? -1 : a > b ? 1 : 0;
  if (x.stage !== y.stage) return y.stage - x.stage;
  if (x.major !== y.major) return y.major - x.major;
  return y.minor - x.minor;
}

export interface GroupInfo {
  name: string;
  /** Versions in priority order; the first is preferred. */
  versions: string[];
}

export class ResourceRegistry {
  private readonly defs = new Map<string, ResourceDefinition>();
  /** Bumped on every change, so caches (discovery, OpenAPI) can be invalidated. */
  generation = 0;

  constructor(defs: ResourceDefinition[] = []) {
    for (const d of defs) this.add(d);
  }

  private static id(group: string, version: string, plural: string): string {
    return `${group}/${version}/${plural}`;
  }

  add(def: ResourceDefinition): void {
    this.defs.set(ResourceRegistry.id(def.group, def.version, def.plural), def);
    this.generation++;
  }

  remove(group: string, version: string, plural: string): void {
    if (this.defs.delete(ResourceRegistry.id(group, version, plural))) this.generation++;
  }

  lookup(group: string, version: string, plural: string): ResourceDefinition | undefined {
    return this.defs.get(ResourceRegistry.id(canonicalGroup(group), version, plural));
  }

  all(): ResourceDefinition[] {
    return [...this.defs.values()];
  }

  /** All served versions of one group/resource (they share storage). */
  versionsOf(group: string, plural: string): ResourceDefinition[] {
    return this.all().filter((d) => d.group === group && d.plural === plural);
  }

  /** The definition whose version objects are stored in (first served version in priority order). */
  storageDefinition(group: string, plural: string): ResourceDefinition | undefined {
    const vs = this.versionsOf(group, plural);
    return vs.find((d) => d.storageVersion === d.version) ?? vs.sort((a, b) => compareVersions(a.version, b.version))[0];
  }

  hasGroupVersion(group: string, version: string): boolean {
    const g = canonicalGroup(group);
    for (const d of this.defs.values()) if (d.group === g && d.version === version) return true;
    return false;
  }

  resourcesIn(group: string, version: string): ResourceDefinition[] {
    const g = canonicalGroup(group);
    return this.all().filter((d) => d.group === g && d.version === version);
  }

  /** Named groups (not core) in discovery order with versions in priority order. */
  groups(): GroupInfo[] {
    const byGroup = new Map<string, Set<string>>();
    const preferred = new Map<string, string>();
    for (const d of this.defs.values()) {
      if (!d.group) continue;
      if (!byGroup.has(d.group)) byGroup.set(d.group, new Set());
      byGroup.get(d.group)!.add(d.version);
      if (d.preferred) preferred.set(d.group, d.version);
    }
    const names = [...byGroup.keys()].sort((a, b) => {
      const ia = GROUP_ORDER.indexOf(a);
      const ib = GROUP_ORDER.indexOf(b);
      if (ia >= 0 && ib >= 0) return ia - ib;
      if (ia >= 0) return -1;
      if (ib >= 0) return 1;
      return a < b ? -1 : a > b ? 1 : 0;
    });
    return names.map((name) => {
      const versions = [...byGroup.get(name)!].sort(compareVersions);
      const pref = preferred.get(name);
      if (pref && versions[0] !== pref) {
        versions.splice(versions.indexOf(pref), 1);
        versions.unshift(pref);
      }
      return { name, versions };
    });
  }
}
