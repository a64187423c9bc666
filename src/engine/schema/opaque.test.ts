// Opaque stays opaque: field validation and pruning never look inside what the real server keeps as raw
// JSON: metadata.managedFields[].fieldsV1, RawExtension members (ControllerRevision data), subtrees under
// x-kubernetes-preserve-unknown-fields, and the JSON members of a CRD schema (default, example, enum).
// Each write runs with fieldValidation=Strict (a refusal) and Warn (a Warning header): neither may appear.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient, type TestResponse } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const JSONPATCH = { 'Content-Type': 'application/json-patch+json' };
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

function clean(r: TestResponse, status = 200): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('warning'), 'no warning').toBeNull();
}

function crd(plural: string, kind: string, openAPIV3Schema: unknown) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
    },
  };
}

/** create, apply (server-side) twice, read back, and write the read-back object again with every patch type. */
async function roundTrips(base: string, obj: Record<string, any>): Promise<void> {
  const name = obj.metadata.name;
  for (const level of ['Strict', 'Warn']) {
    clean(await c.req('POST', `${base}?fieldValidation=${level}`, obj), 201);
    const applied = { ...obj, metadata: { name } };
    clean(await c.req('PATCH', `${base}/${name}?fieldManager=a&fieldValidation=${level}`, JSON.stringify(applied), APPLY));
    clean(await c.req('PATCH', `${base}/${name}?fieldManager=a&fieldValidation=${level}`, JSON.stringify(applied), APPLY));
    const got = await c.req('GET', `${base}/${name}`);
    expect(got.body.metadata.managedFields.length).toBeGreaterThan(0);
    // what kubectl's client-side apply and kubectl edit send: the whole read-back object (managedFields included)
    clean(await c.req('PATCH', `${base}/${name}?fieldValidation=${level}`, JSON.stringify(got.body), MERGE));
    clean(await c.req('PATCH', `${base}/${name}?fieldValidation=${level}`, JSON.stringify([{ op: 'replace', path: '/metadata/managedFields', value: got.body.metadata.managedFields }]), JSONPATCH));
    const again = await c.req('GET', `${base}/${name}`);
    clean(await c.req('PUT', `${base}/${name}?fieldValidation=${level}`, again.body));
    clean(await c.req('DELETE', `${base}/${name}`));
  }
}

describe('opaque fields are never validated or pruned inside', () => {
  it('managedFields[].fieldsV1 of a custom resource whose root preserves unknown fields', async () => {
    clean(await c.req('POST', CRDS, crd('blobs', 'Blob', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true })), 201);
    const base = '/apis/example.com/v1/namespaces/default/blobs';
    await roundTrips(base, { apiVersion: 'example.com/v1', kind: 'Blob', metadata: { name: 'b' }, spec: { a: 1, nested: { x: [1, { y: 2 }] } }, extra: 'kept' });
    clean(await c.req('POST', base, { apiVersion: 'example.com/v1', kind: 'Blob', metadata: { name: 'b2' }, anything: { goes: [true] } }), 201);
    expect((await c.req('GET', `${base}/b2`)).body.anything).toEqual({ goes: [true] });
  });

  it('managedFields[].fieldsV1 of a custom resource with a structural schema, and preserve-unknown-fields subtrees', async () => {
    clean(await c.req('POST', CRDS, crd('gizmos', 'Gizmo', {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            size: { type: 'integer' },
            config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          },
        },
      },
    })), 201);
    const base = '/apis/example.com/v1/namespaces/default/gizmos';
    await roundTrips(base, {
      apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g' },
      spec: {
        size: 1,
        config: { any: { deep: [{ thing: 1 }] } },
        template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner', labels: { a: 'b' } }, data: { k: 'v' } },
      },
    });
  });

  it('RawExtension members of built-in kinds (ControllerRevision data) and managedFields of built-in kinds', async () => {
    await roundTrips('/apis/apps/v1/namespaces/default/controllerrevisions', {
      apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1,
      data: { spec: { template: { anything: ['at', { all: true }] } }, 'f:notAField': {} },
    });
    await roundTrips('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } });
  });

  it('the JSON members of a CRD schema (default, example, enum) take any JSON', async () => {
    const body = crd('jsons', 'Json', {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          default: { mode: 'a', nested: { list: [1, 2], 'f:odd': {} } },
          example: { mode: 'b', whatever: { x: [{ y: null }] } },
          properties: { mode: { type: 'string', enum: ['a', 'b'] }, nested: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
        choice: { type: 'object', enum: [{ a: 1 }, { b: [2] }], 'x-kubernetes-preserve-unknown-fields': true },
      },
    });
    clean(await c.req('POST', `${CRDS}?fieldValidation=Strict`, body), 201);
    const got = await c.req('GET', `${CRDS}/jsons.example.com`);
    expect(got.body.spec.versions[0].schema.openAPIV3Schema.properties.spec.example).toEqual({ mode: 'b', whatever: { x: [{ y: null }] } });
    clean(await c.req('PATCH', `${CRDS}/jsons.example.com?fieldValidation=Strict`, JSON.stringify(got.body), MERGE));
    clean(await c.req('PATCH', `${CRDS}/jsons.example.com?fieldManager=a&force=true&fieldValidation=Strict`, JSON.stringify(body), APPLY));
  });

  it('undeclared fields next to opaque ones are still reported', async () => {
    clean(await c.req('POST', CRDS, crd('blobs', 'Blob', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true })), 201);
    const r = await c.req('POST', '/apis/example.com/v1/namespaces/default/blobs?fieldValidation=Strict', {
      apiVersion: 'example.com/v1', kind: 'Blob', metadata: { name: 'b', bogus: 1, managedFields: [{ manager: 'm', fieldsV1: { 'f:x': {} }, nope: 1 }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Blob in version "v1" cannot be handled as a Blob: strict decoding error: unknown field "metadata.bogus", unknown field "metadata.managedFields[0].nope"');
  });
});
