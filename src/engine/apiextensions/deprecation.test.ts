// Deprecated CRD versions: every request to a deprecated version carries the Warning header of the real
// crdHandler, `299 - "<text>"`, with the CRD's deprecationWarning or the default text.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function crd(versions: Record<string, unknown>[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: versions.map((v) => ({ served: true, storage: false, schema: { openAPIV3Schema: open }, subresources: { status: {} }, ...v })),
    },
  };
}

const base = (v: string) => `/apis/example.com/${v}/namespaces/default/gadgets`;
const gadget = (v: string, name: string) => ({ apiVersion: `example.com/${v}`, kind: 'Gadget', metadata: { name }, spec: { a: 1 } });

describe('deprecated CRD versions', () => {
  it('every verb on a deprecated version warns with the default text naming the newest served version', async () => {
    expect((await c.req('POST', CRDS, crd([
      { name: 'v1alpha1', deprecated: true },
      { name: 'v1beta1', deprecated: true },
      { name: 'v1', storage: true },
      { name: 'v2alpha1' },
    ]))).status).toBe(201);
    const W = '299 - "example.com/v1alpha1 Gadget is deprecated; use example.com/v1 Gadget"';
    const v = 'v1alpha1';
    const responses = [
      await c.req('POST', base(v), gadget(v, 'g')),
      await c.req('GET', base(v)),
      await c.req('GET', `${base(v)}/g`),
      await c.req('GET', `${base(v)}/g/status`),
      await c.req('PUT', `${base(v)}/g`, (await c.req('GET', `${base('v1')}/g`)).body),
      await c.req('PATCH', `${base(v)}/g`, JSON.stringify({ spec: { b: 2 } }), { 'Content-Type': 'application/merge-patch+json' }),
      await c.req('PATCH', `${base(v)}/g?fieldManager=m`, JSON.stringify(gadget(v, 'g')), { 'Content-Type': 'application/apply-patch+yaml' }),
      await c.req('GET', `${base(v)}/missing`),
      await c.req('DELETE', `${base(v)}/g`),
      await c.req('DELETE', base(v)),
    ];
    expect(responses.map((r) => r.status)).toEqual([201, 200, 200, 200, 200, 200, 200, 404, 200, 200]);
    for (const r of responses) expect(r.headers.get('warning')).toBe(W);
    // watch: the header comes with the stream
    const w = await c.raw('GET', `${base(v)}?watch=true&timeoutSeconds=1`);
    expect(w.headers.get('warning')).toBe(W);
    await w.body?.cancel();
    // the newer deprecated version is not suggested; a served, non-deprecated version is not warned about
    expect((await c.req('GET', base('v1beta1'))).headers.get('warning')).toBe('299 - "example.com/v1beta1 Gadget is deprecated; use example.com/v1 Gadget"');
    expect((await c.req('GET', base('v1'))).headers.get('warning')).toBeNull();
    expect((await c.req('GET', base('v2alpha1'))).headers.get('warning')).toBeNull();
  });

  it('the CRD deprecationWarning replaces the default; with no newer version the default names none', async () => {
    expect((await c.req('POST', CRDS, crd([
      { name: 'v1', storage: true, deprecated: true },
      { name: 'v1beta1', deprecated: true, deprecationWarning: 'v1beta1 gadgets go away in 2027' },
    ]))).status).toBe(201);
    expect((await c.req('GET', base('v1beta1'))).headers.get('warning')).toBe('299 - "v1beta1 gadgets go away in 2027"');
    expect((await c.req('GET', base('v1'))).headers.get('warning')).toBe('299 - "example.com/v1 Gadget is deprecated"');
  });

  it('the deprecation warning comes before the warnings of the request itself', async () => {
    expect((await c.req('POST', CRDS, crd([{ name: 'v1', storage: true, deprecated: true }]))).status).toBe(201);
    const r = await c.req('POST', `${base('v1')}?fieldValidation=Warn`, { ...gadget('v1', 'g'), metadata: { name: 'g', bogus: 1 } });
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBe('299 - "example.com/v1 Gadget is deprecated", 299 - "unknown field \\"metadata.bogus\\""');
  });
});

describe('deprecated built-in versions', () => {
  it('v1 Endpoints warns on every request, as v1.33 does', async () => {
    const W = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';
    const base = '/api/v1/namespaces/default/endpoints';
    const rs = [
      await c.req('POST', base, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'e' } }),
      await c.req('GET', base),
      await c.req('GET', `${base}/e`),
      await c.req('DELETE', `${base}/e`),
    ];
    expect(rs.map((r) => r.status)).toEqual([201, 200, 200, 200]);
    for (const r of rs) expect(r.headers.get('warning')).toBe(W);
    expect((await c.req('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices')).headers.get('warning')).toBeNull();
  });
});
