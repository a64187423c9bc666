import { describe, expect, it } from 'vitest';
import { combinedSchema, convertSchema, kindSchemas, openApiDocumentUrls } from './schemas.js';

const coreDoc = {
  components: {
    schemas: {
      'io.k8s.api.core.v1.ConfigMap': {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {} },
          data: { type: 'object', additionalProperties: { type: 'string', default: '' } },
          immutable: { type: 'boolean', nullable: true },
        },
        'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'ConfigMap' }],
      },
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
        type: 'object',
        properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
      },
      'io.k8s.api.core.v1.ConfigMapList': {
        type: 'object',
        properties: { items: { type: 'array', items: { $ref: '#/components/schemas/io.k8s.api.core.v1.ConfigMap' } } },
        'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'ConfigMapList' }],
      },
    },
  },
};

describe('OpenAPI v3 to JSON Schema', () => {
  it('rewrites refs, drops nullable and x-kubernetes extensions, describes properties by type', () => {
    const refs = new Set<string>();
    expect(convertSchema({ type: 'object', nullable: true, 'x-kubernetes-map-type': 'atomic', properties: { a: { $ref: '#/components/schemas/X' }, b: { type: 'integer', format: 'int32' } } }, refs)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        a: { allOf: [{ $ref: '#/definitions/X' }], description: 'X', title: 'a: X' },
        b: { type: 'integer', format: 'int32', description: 'integer (int32)', title: 'b: integer (int32)' },
      },
    });
    expect([...refs]).toEqual(['X']);
  });

  it('keeps objects open where unknown fields are preserved, or maps', () => {
    expect(convertSchema({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string', description: 'string', title: 'a: string' } },
    });
    expect(convertSchema({ type: 'object', additionalProperties: { type: 'string' } })).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
    expect(convertSchema({ type: 'object', properties: {} }, undefined, false)).toEqual({ type: 'object', properties: {} });
  });

  it('builds one schema per kind with the definitions it reaches and fixed apiVersion/kind', () => {
    const kinds = kindSchemas([coreDoc]);
    expect([...kinds.keys()]).toEqual(['v1/ConfigMap', 'v1/ConfigMapList']);
    const cm = kinds.get('v1/ConfigMap')!;
    expect(cm.title).toBe('ConfigMap (v1)');
    expect((cm.properties as Record<string, unknown>).kind).toEqual({ type: 'string', enum: ['ConfigMap'], description: 'Kind' });
    expect(Object.keys(cm.definitions as object)).toEqual(['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    expect(cm.required).toEqual(['apiVersion', 'kind']);
    const list = kinds.get('v1/ConfigMapList')!;
    expect(Object.keys(list.definitions as object).sort()).toEqual(['io.k8s.api.core.v1.ConfigMap', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
  });

  it('combines kinds as oneOf (lists left out)', () => {
    const all = combinedSchema(kindSchemas([coreDoc]));
    expect(all.oneOf).toEqual([{ $ref: '#/definitions/kind:v1:ConfigMap' }]);
    expect(Object.keys(all.definitions as object).sort()).toEqual(['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'kind:v1:ConfigMap']);
    expect(((all.definitions as Record<string, { title?: string }>)['kind:v1:ConfigMap']).title).toBe('ConfigMap (v1)');
  });

  it('lists the group-version documents of /openapi/v3', () => {
    expect(
      openApiDocumentUrls({ paths: { 'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=AB' }, 'apis/apps/v1': {}, 'version': {}, '.well-known/openid-configuration': {} } }),
    ).toEqual(['/openapi/v3/api/v1?hash=AB', '/openapi/v3/apis/apps/v1']);
  });
});

describe('hover title', () => {
  it('names the field and its own type, also inside a definition shared by every kind (ObjectMeta), and keeps a title the schema has', () => {
    const kinds = kindSchemas([coreDoc]);
    const cm = kinds.get('v1/ConfigMap') as { properties: Record<string, { title?: string }>; definitions: Record<string, { properties: Record<string, { title?: string }> }> };
    expect(cm.properties.metadata.title).toBe('metadata: ObjectMeta');
    expect(cm.properties.data.title).toBe('data: map[string]string');
    expect(cm.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.name.title).toBe('name: string');
    expect((convertSchema({ type: 'object', properties: { a: { type: 'string', title: 'Mine' } } }) as { properties: { a: { title: string } } }).properties.a.title).toBe('Mine');
  });
});

describe('hover text', () => {
  it("is the engine's own description of each field, as its OpenAPI documents carry it", async () => {
    // the engine is imported here only to produce the document the editor fetches over HTTP
    const { buildOpenAPIV3GroupVersion } = await import('../../engine/endpoints/openapi.js');
    const { builtinResources } = await import('../../engine/resources/index.js');
    const { propertyDescription } = await import('../../engine/schema/descriptions.js');
    const doc = buildOpenAPIV3GroupVersion(builtinResources, 'api/v1');
    const svc = kindSchemas([doc]).get('v1/Service') as any;
    const spec = svc.definitions['io.k8s.api.core.v1.ServiceSpec'];
    const expected = propertyDescription('io.k8s.api.core.v1.ServiceSpec', 'type', { type: 'string' }, false);
    expect(spec.properties.type.description).toBe(expected);
    expect(spec.properties.type.enum).toEqual(['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']);
    expect(svc.properties.spec.description).toContain('The desired state');
  });
});
