// CRDs served end to end over HTTP: registration, discovery in the same request cycle, CRUD of custom
// resources, printer columns, multiple versions, and cleanup on CRD deletion.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

function crd(overrides: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } }, status: { type: 'object', properties: { ready: { type: 'boolean' } } } } } },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas' } },
          additionalPrinterColumns: [
            { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
            { name: 'Color', type: 'string', jsonPath: '.spec.color' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
        { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      ],
      ...overrides,
    },
  };
}

const widget = (name: string, spec: Record<string, unknown> = { size: 3, color: 'red' }, apiVersion = 'example.com/v1') => ({
  apiVersion,
  kind: 'Widget',
  metadata: { name },
  spec,
});

describe('CustomResourceDefinition registration', () => {
  it('create sets NamesAccepted and Established and the cleanup finalizer', async () => {
    const r = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd());
    expect(r.status).toBe(201);
    expect(r.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(r.body.status.conditions.map((x: any) => [x.type, x.status])).toEqual([
      ['NamesAccepted', 'True'],
      ['Established', 'True'],
    ]);
    expect(r.body.status.acceptedNames).toEqual({ plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] });
    expect(r.body.status.storedVersions).toEqual(['v1']);
  });

  it('the new resource is in discovery right after the create', async () => {
    expect((await c.req('GET', '/apis/example.com/v1')).status).toBe(404);
    await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd());
    const group = await c.req('GET', '/apis/example.com');
    expect(group.body.preferredVersion).toEqual({ groupVersion: 'example.com/v1', version: 'v1' });
    expect(group.body.versions.map((v: any) => v.version)).toEqual(['v1', 'v1beta1']);
    const res = await c.req('GET', '/apis/example.com/v1');
    const w = res.body.resources.find((x: any) => x.name === 'widgets');
    expect(w).toMatchObject({ singularName: 'widget', namespaced: true, kind: 'Widget', shortNames: ['wd'], categories: ['all'] });
    expect(res.body.resources.map((x: any) => x.name)).toEqual(['widgets', 'widgets/scale', 'widgets/status']);
  });
});

describe('serving custom resources', () => {
  beforeEach(async () => {
    await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd());
  });

  it('CRUD with generation tracking, unknown fields pruned with a warning', async () => {
    const r = await c.req('POST', '/apis/example.com/v1/namespaces/default/widgets', widget('w1', { size: 3, extra: true }));
    expect(r.status).toBe(201);
    expect(r.headers.get('Warning')).toBe('299 - "unknown field \\"spec.extra\\""');
    expect(r.body.spec).toEqual({ size: 3 });
    expect(r.body.metadata.generation).toBe(1);
    const upd = await c.req('PUT', '/apis/example.com/v1/namespaces/default/widgets/w1', { ...r.body, spec: { size: 4 } });
    expect(upd.status).toBe(200);
    expect(upd.body.metadata.generation).toBe(2);
    const list = await c.req('GET', '/apis/example.com/v1/widgets');
    expect(list.body.kind).toBe('WidgetList');
    expect(list.body.items[0].apiVersion).toBe('example.com/v1'); // unstructured lists keep apiVersion/kind on items
    const del = await c.req('DELETE', '/apis/example.com/v1/namespaces/default/widgets/w1');
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'w1', group: 'example.com', kind: 'widgets' } });
  });

  it('objects round-trip between served versions (conversion None)', async () => {
    await c.req('POST', '/apis/example.com/v1/namespaces/default/widgets', widget('w2'));
    const beta = await c.req('GET', '/apis/example.com/v1beta1/namespaces/default/widgets/w2');
    expect(beta.status).toBe(200);
    expect(beta.body.apiVersion).toBe('example.com/v1beta1');
    expect(beta.body.spec).toEqual({ size: 3, color: 'red' });
  });

  it('printer columns in the Table', async () => {
    await c.req('POST', '/apis/example.com/v1/namespaces/default/widgets', widget('w3'));
    await c.env.advance(90_000);
    const t = await c.req('GET', '/apis/example.com/v1/namespaces/default/widgets', undefined, { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' });
    expect(t.body.columnDefinitions.map((x: any) => [x.name, x.type])).toEqual([
      ['Name', 'string'],
      ['Size', 'integer'],
      ['Color', 'string'],
      ['Age', 'date'],
    ]);
    expect(t.body.rows[0].cells).toEqual(['w3', 3, 'red', '90s']);
  });

  it('status subresource: main resource ignores status, /status ignores the rest', async () => {
    const created = (await c.req('POST', '/apis/example.com/v1/namespaces/default/widgets', { ...widget('w4'), status: { ready: true } })).body;
    expect(created.status).toBeUndefined();
    const st = await c.req('PUT', '/apis/example.com/v1/namespaces/default/widgets/w4/status', { ...created, spec: { size: 99 }, status: { ready: true } });
    expect(st.status).toBe(200);
    expect(st.body.status).toEqual({ ready: true });
    expect(st.body.spec.size).toBe(3);
  });

  it('scale subresource reads and writes the declared paths', async () => {
    await c.req('POST', '/apis/example.com/v1/namespaces/default/widgets', widget('w5'));
    const s = await c.req('GET', '/apis/example.com/v1/namespaces/default/widgets/w5/scale');
    expect(s.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 }, status: { replicas: 0 } });
    const put = await c.req('PUT', '/apis/example.com/v1/namespaces/default/widgets/w5/scale', { ...s.body, spec: { replicas: 7 } });
    expect(put.status).toBe(200);
    expect((await c.req('GET', '/apis/example.com/v1/namespaces/default/widgets/w5')).body.spec.size).toBe(7);
  });

  it('deleting the CRD removes its objects, ends its watches, then the CRD', async () => {
    await c.req('POST', '/apis/example.com/v1/namespaces/default/widgets', widget('w6'));
    const res = await c.raw('GET', '/apis/example.com/v1/widgets?watch=1&resourceVersion=0');
    const reader = res.body!.getReader();
    const del = await c.req('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
    expect(del.status).toBe(200);
    expect(del.body.metadata.deletionTimestamp).toBeTruthy();
    await c.env.advance(10);
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const types = text.trim().split('\n').map((l) => JSON.parse(l).type);
    expect(types).toEqual(['ADDED', 'DELETED']);
    expect((await c.req('GET', '/apis/example.com/v1/widgets')).status).toBe(404);
    expect((await c.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com')).status).toBe(404);
  });

  it('strategic merge patch is refused for custom resources (415)', async () => {
    await c.req('POST', '/apis/example.com/v1/namespaces/default/widgets', widget('w7'));
    const r = await c.req('PATCH', '/apis/example.com/v1/namespaces/default/widgets/w7', { spec: { size: 1 } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    expect(r.status).toBe(415);
    expect(r.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });
});
