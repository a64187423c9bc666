import { describe, expect, it } from 'vitest';
import { builtinDefinitions, builtinResources } from './index.js';
import { resolve } from '../schema/types.js';

const find = (group: string, version: string, plural: string) => {
  const r = builtinResources.find((d) => d.group === group && d.version === version && d.plural === plural);
  if (!r) throw new Error(`missing ${plural}`);
  return r;
};

describe('generated built-in facts', () => {
  it('lists every served resource once', () => {
    expect(builtinResources).toHaveLength(53);
    const keys = new Set(builtinResources.map((r) => `${r.group}/${r.version}/${r.plural}`));
    expect(keys.size).toBe(53);
  });

  it('Deployment: scale and status subresources, verbs, short names, category', () => {
    const d = find('apps', 'v1', 'deployments');
    expect(d.kind).toBe('Deployment');
    expect(d.listKind).toBe('DeploymentList');
    expect(d.singular).toBe('deployment');
    expect(d.namespaced).toBe(true);
    expect(d.subresources.status).toBe(true);
    expect(d.subresources.scale).toEqual({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' });
    expect(d.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(d.shortNames).toEqual(['deploy']);
    expect(d.categories).toEqual(['all']);
    expect(d.schema).toEqual({ $ref: 'io.k8s.api.apps.v1.Deployment' });
  });

  it('Namespace is cluster-scoped and has no deletecollection', () => {
    const ns = find('', 'v1', 'namespaces');
    expect(ns.namespaced).toBe(false);
    expect(ns.verbs).not.toContain('deletecollection');
    expect(ns.shortNames).toEqual(['ns']);
  });

  it('ConfigMap has no subresources; CRD short names', () => {
    expect(find('', 'v1', 'configmaps').subresources).toEqual({});
    expect(find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions').shortNames).toEqual(['crd', 'crds']);
    expect(find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions').namespaced).toBe(false);
  });

  it('keeps the list-map markers on containers and rewrites refs to bare names', () => {
    const spec = builtinDefinitions['io.k8s.api.core.v1.PodSpec'];
    const containers = spec.properties!.containers;
    expect(containers['x-kubernetes-list-type']).toBe('map');
    expect(containers['x-kubernetes-list-map-keys']).toEqual(['name']);
    expect(containers['x-kubernetes-patch-merge-key']).toBe('name');
    expect(containers['x-kubernetes-patch-strategy']).toBe('merge');
    expect(containers.items).toEqual({ $ref: 'io.k8s.api.core.v1.Container' });
    expect(spec.required).toEqual(['containers']);
  });

  it('carries the +default markers that server-side apply needs', () => {
    expect(builtinDefinitions['io.k8s.api.core.v1.ContainerPort'].properties!.protocol).toEqual({ type: 'string', default: 'TCP' });
    expect(builtinDefinitions['io.k8s.api.core.v1.ServicePort'].properties!.protocol.default).toBe('TCP');
    const ports = builtinDefinitions['io.k8s.api.core.v1.Container'].properties!.ports;
    expect(ports['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
  });

  it('has no prose descriptions (a property named description is a field and stays) and resolves every $ref', () => {
    const json = JSON.stringify(builtinDefinitions);
    const prose: string[] = [];
    const walk = (node: unknown, path: string, underProperties: boolean): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'description' && !underProperties) prose.push(path);
        walk(v, `${path}.${k}`, k === 'properties');
      }
    };
    walk(builtinDefinitions, '', false);
    expect(prose).toEqual([]);
    // the fields named description are kept (JSONSchemaProps, PriorityClass, column definitions, ExternalDocumentation)
    expect(builtinDefinitions['io.k8s.api.scheduling.v1.PriorityClass'].properties?.description).toEqual({ type: 'string' });
    const refs = [...json.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    for (const r of refs) expect(builtinDefinitions[r], r).toBeDefined();
    expect(resolve({ $ref: 'io.k8s.api.autoscaling.v1.Scale' }, builtinDefinitions)?.properties?.spec).toBeDefined();
    expect(builtinDefinitions['io.k8s.apimachinery.pkg.apis.meta.v1.Status']).toBeDefined();
    expect(builtinDefinitions['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']).toBeDefined();
  });

  it('keeps group-version-kind and int-or-string facts', () => {
    expect(builtinDefinitions['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    expect(builtinDefinitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({ type: 'string', format: 'int-or-string' });
  });
});
