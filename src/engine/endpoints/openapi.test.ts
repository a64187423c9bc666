import { describe, expect, it } from 'vitest';
import type { ResourceDefinition } from '../registry/types.js';
import { builtinResources } from '../resources/index.js';
import { buildOpenAPIV2, buildOpenAPIV3Discovery, buildOpenAPIV3GroupVersion, contentHash, kindSchemaName } from './openapi.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function allRefs(doc: unknown, acc: string[] = []): string[] {
  if (Array.isArray(doc)) doc.forEach((d) => allRefs(d, acc));
  else if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) {
      if (k === '$ref' && typeof v === 'string') acc.push(v);
      else allRefs(v, acc);
    }
  }
  return acc;
}

const widgets: ResourceDefinition = {
  group: 'example.com', version: 'v1', kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget',
  namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: { status: true },
  schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } },
  definitions: {}, strategy: {},
};

describe('OpenAPI v3', () => {
  const doc = buildOpenAPIV3GroupVersion(builtinResources, 'apis/apps/v1') as Json;

  it('has the document shape kubectl loads', () => {
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: 'v1.33.0' });
    const dep = doc.components.schemas['io.k8s.api.apps.v1.Deployment'];
    expect(dep['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    // a described reference is an allOf (v3 ignores the siblings of a $ref)
    expect(dep.properties.spec).toEqual({ allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' }], description: 'The desired state: what you want this object to be. A DeploymentSpec.' });
    expect(dep.description).toBe('A Deployment runs a number of identical pods and rolls out changes to them through ReplicaSets.');
    expect(doc.components.schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties.replicas).toEqual({ type: 'integer', format: 'int32', description: 'How many copies of the pod should run. An integer (int32).' });
    expect(doc.components.schemas['io.k8s.api.core.v1.ContainerPort'].properties.protocol).toEqual({
      type: 'string', default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'], description: 'A string. One of "SCTP", "TCP", "UDP". Defaults to "TCP".',
    });
    expect(doc.components.schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({ format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
  });

  it('every built-in definition and every property has a description; enum fields list their values', () => {
    const core = buildOpenAPIV3GroupVersion(builtinResources, 'api/v1') as Json;
    for (const d of [doc, core]) {
      for (const [name, s] of Object.entries<Json>(d.components.schemas)) {
        if (name.endsWith('IntOrString') || name.endsWith('Quantity')) continue;
        expect(typeof s.description === 'string' && s.description.length > 0, name).toBe(true);
        for (const [p, ps] of Object.entries<Json>(s.properties ?? {})) expect(typeof ps.description === 'string' && ps.description.length > 0, `${name}.${p}`).toBe(true);
      }
    }
    expect(core.components.schemas['io.k8s.api.core.v1.ServiceSpec'].properties.type.enum).toEqual(['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']);
    expect(core.components.schemas['io.k8s.api.core.v1.PersistentVolumeClaimSpec'].properties.accessModes.items.enum).toEqual(['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod']);
  });

  it('resolves every $ref inside the document', () => {
    for (const ref of allRefs(doc)) {
      expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
  });

  it('PATCH operations carry the GVK and the fieldValidation parameter', () => {
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    expect(patch.operationId).toBe('patchAppsV1NamespacedDeployment');
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', kind: 'Deployment', version: 'v1' });
    expect(patch.parameters.map((p: Json) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(Object.keys(patch.requestBody.content)).toContain('application/strategic-merge-patch+json');
    const scale = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'].get;
    expect(scale['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', kind: 'Scale', version: 'v1' });
    expect(doc.paths['/apis/apps/v1/deployments'].get.operationId).toBe('listAppsV1DeploymentForAllNamespaces');
  });

  it('core and cluster-scoped paths', () => {
    const core = buildOpenAPIV3GroupVersion(builtinResources, 'api/v1') as Json;
    expect(core.paths['/api/v1/namespaces/{name}'].get.operationId).toBe('readCoreV1Namespace');
    expect(core.paths['/api/v1/namespaces/{namespace}/pods'].post.operationId).toBe('createCoreV1NamespacedPod');
    expect(buildOpenAPIV3GroupVersion(builtinResources, 'apis/nope/v1')).toBeUndefined();
  });

  it('custom resources get a kind schema with metadata, a list schema and GVKs', () => {
    const d = buildOpenAPIV3GroupVersion([...builtinResources, widgets], 'apis/example.com/v1') as Json;
    expect(kindSchemaName(widgets)).toBe('com.example.v1.Widget');
    const w = d.components.schemas['com.example.v1.Widget'];
    expect(w.properties.metadata).toEqual({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    expect(w['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', version: 'v1', kind: 'Widget' }]);
    expect(d.components.schemas['com.example.v1.WidgetList'].properties.items.items).toEqual({ $ref: '#/components/schemas/com.example.v1.Widget' });
    expect(Object.keys(d.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch.requestBody.content)).not.toContain('application/strategic-merge-patch+json');
    for (const ref of allRefs(d)) expect(d.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
  });

  it('the discovery document lists every group-version with a content hash', () => {
    const disc = buildOpenAPIV3Discovery(builtinResources);
    expect(Object.keys(disc.paths)).toContain('api/v1');
    expect(Object.keys(disc.paths)).toContain('apis/apps/v1');
    expect(Object.keys(disc.paths)).toContain('apis/autoscaling/v1');
    expect(disc.paths['apis/apps/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{32}$/);
    expect(buildOpenAPIV3Discovery(builtinResources)).toEqual(disc);
    expect(contentHash('a')).not.toBe(contentHash('b'));
  });
});

describe('OpenAPI v2', () => {
  it('swagger 2.0 with definitions and paths', () => {
    const doc = buildOpenAPIV2(builtinResources) as Json;
    expect(doc.swagger).toBe('2.0');
    expect(doc.definitions['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(doc.definitions['io.k8s.api.core.v1.PodSpec'].properties.containers.items).toEqual({ $ref: '#/definitions/io.k8s.api.core.v1.Container' });
    const post = doc.paths['/api/v1/namespaces/{namespace}/configmaps'].post;
    expect(post['x-kubernetes-action']).toBe('post');
    expect(post.parameters[0]).toEqual({ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' } });
    for (const ref of allRefs(doc)) expect(doc.definitions[ref.slice('#/definitions/'.length)], ref).toBeDefined();
  });
});

describe('custom resources in the OpenAPI documents', () => {
  it("carry their CRD's descriptions at every level, in v2 and v3", async () => {
    const { createMemoryStorage } = await import('../../adapters/memory/memory-storage.js');
    const { testClient } = await import('../testing/harness.js');
    const c = await testClient(createMemoryStorage());
    const schema = {
      type: 'object',
      description: 'A gadget.',
      properties: {
        spec: {
          type: 'object',
          description: 'What the gadget should be.',
          properties: { parts: { type: 'array', description: 'Its parts.', items: { type: 'object', description: 'One part.', properties: { name: { type: 'string', description: 'The part name.' } } } } },
        },
      },
    };
    const r = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] },
    });
    expect(r.status).toBe(201);
    const v3 = (await c.req('GET', '/openapi/v3/apis/example.com/v1')).body.components.schemas['com.example.v1.Gadget'];
    const v2 = (await c.req('GET', '/openapi/v2')).body.definitions['com.example.v1.Gadget'];
    for (const s of [v3, v2]) {
      expect(s.description).toBe('A gadget.');
      expect(s.properties.spec.description).toBe('What the gadget should be.');
      expect(s.properties.spec.properties.parts.description).toBe('Its parts.');
      expect(s.properties.spec.properties.parts.items.description).toBe('One part.');
      expect(s.properties.spec.properties.parts.items.properties.name.description).toBe('The part name.');
    }
  });
});
