// A read-back object is always writable, over the whole catalog: for every served kind (built-in, and a
// custom resource), a PUT of the object exactly as GET returned it succeeds and changes nothing but the
// resourceVersion; a PUT of the manifest as first written (no resourceVersion, as `kubectl replace -f`
// sends it) is accepted exactly where the real strategy allows unconditional updates, and so is a
// resourceVersion of "0"; elsewhere both get the real 422. And the answer of every write (create, update,
// no-op update, merge patch) is byte for byte what a get of the object then answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from './index.js';
import { sampleObject } from './samples.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../object.js';

/** Each kind writes in a namespace of its own (a LimitRange of one kind's test must not reach another's pods). */
function nsOf(def: ResourceDefinition): string {
  return `rb-${kinds.indexOf(def)}`;
}

function path(def: ResourceDefinition, name?: string): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return `${base}${def.namespaced ? `/namespaces/${nsOf(def)}` : ''}/${def.plural}${name ? `/${name}` : ''}`;
}

const widget = { group: 'readback.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, custom: true } as unknown as ResourceDefinition;

/** Kinds whose real strategy refuses an update without a resourceVersion (AllowUnconditionalUpdate false). */
const CONDITIONAL_ONLY = new Set([
  'apiextensions.k8s.io/customresourcedefinitions',
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'readback.example.com/widgets',
]);

/**
 * Kinds whose manifest as first written cannot replace the created object on a real server either: a Job's
 * generated selector and template labels are immutable and absent from the manifest.
 */
const REPLACE_REFUSED: Record<string, string> = {
  'batch/jobs': 'spec.selector: Required value',
};

const kinds = [...builtinResources, widget];
const id = (def: ResourceDefinition) => `${def.group}/${def.plural}`;

function sample(def: ResourceDefinition, name: string): KubeObject {
  // two versions of one resource share their objects: names differ by version
  name = `${name}-${def.version}`;
  return sampleObject(def, name, nsOf(def)) ?? { apiVersion: `${def.group}/${def.version}`, kind: def.kind, metadata: { name }, spec: { a: name } };
}

let c: TestClient;

/** The namespaces of every kind's test and the Widget CRD. */
async function prepare(client: TestClient): Promise<void> {
  for (const def of kinds) if (def.namespaced) expect((await client.req('POST', '/api/v1/namespaces', { metadata: { name: nsOf(def) } })).status).toBe(201);
  const crd = await client.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    metadata: { name: 'widgets.readback.example.com' },
    spec: {
      group: 'readback.example.com', scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } }],
    },
  });
  expect(crd.status).toBe(201);
  await client.env.advance(1000);
}

beforeAll(async () => {
  c = await testClient(createMemoryStorage());
  await prepare(c);
});

function withoutRV(o: KubeObject): KubeObject {
  const copy = JSON.parse(JSON.stringify(o)) as KubeObject;
  delete copy.metadata!.resourceVersion;
  return copy;
}

describe('PUT of the object as read back', () => {
  for (const def of kinds) {
    it(`${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}: succeeds and changes nothing but resourceVersion`, async () => {
      const body = sample(def, 'readback');
      const created = await c.req('POST', path(def), body);
      expect(created.status, created.text).toBe(201);
      const name = created.body.metadata.name;
      // controllers that write the new object (the policy status controller) act before it is read back
      await c.settle();
      const got = await c.req('GET', path(def, name));
      expect(got.status).toBe(200);
      const put = await c.req('PUT', path(def, name), got.body);
      expect(put.status, put.text).toBe(200);
      // no warning but the deprecation notice of a deprecated kind (the same on every request to it)
      expect(put.headers.get('warning')).toBe(got.headers.get('warning'));
      if (!def.deprecated) expect(put.headers.get('warning')).toBeNull();
      expect(withoutRV(put.body)).toEqual(withoutRV(got.body));
      const again = await c.req('GET', path(def, name));
      expect(withoutRV(again.body)).toEqual(withoutRV(got.body));
      // a second round trip is stable too
      const put2 = await c.req('PUT', path(def, name), again.body);
      expect(put2.status, put2.text).toBe(200);
      expect(withoutRV(put2.body)).toEqual(withoutRV(got.body));
    });
  }
});

describe('PUT of the manifest as first written (kubectl replace -f)', () => {
  for (const def of kinds) {
    const conditional = CONDITIONAL_ONLY.has(id(def));
    const refused = REPLACE_REFUSED[id(def)];
    const expectation = conditional ? '422: resourceVersion must be specified' : refused ? `422 as real: ${refused}` : 'succeeds';
    it(`${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}: ${expectation}`, async () => {
      const body = sample(def, 'replace');
      const created = await c.req('POST', path(def), body);
      expect(created.status, created.text).toBe(201);
      const name = created.body.metadata.name;
      const manifest = { ...body, metadata: { ...body.metadata, name } };
      for (const rv of [undefined, '0']) {
        const sent = rv === undefined ? manifest : { ...manifest, metadata: { ...manifest.metadata, resourceVersion: rv } };
        const r = await c.req('PUT', path(def, name), sent);
        if (conditional) {
          expect(r.status, r.text).toBe(422);
          expect(r.body.message).toBe(`${def.plural}${def.group ? `.${def.group}` : ''} "${name}" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`);
          expect(r.body.details).toEqual({ name, group: def.group || undefined, kind: def.plural, causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }] });
        } else if (refused) {
          expect(r.status, r.text).toBe(422);
          expect(r.body.message).toContain(refused);
        } else {
          expect(r.status, `resourceVersion ${String(rv)}: ${r.text}`).toBe(200);
          expect(r.body.metadata.uid).toBe(created.body.metadata.uid);
        }
      }
    });
  }
});

describe('conditional updates', () => {
  it('a stale resourceVersion is a 409 for every kind', async () => {
    for (const def of kinds) {
      const created = await c.req('POST', path(def), sample(def, 'stale'));
      expect(created.status, created.text).toBe(201);
      const name = created.body.metadata.name;
      const r = await c.req('PUT', path(def, name), { ...created.body, metadata: { ...created.body.metadata, resourceVersion: '1' } });
      expect(r.status, `${def.plural}: ${r.text}`).toBe(409);
    }
  });
});

describe('the answer of a write is the object as a get of it answers, byte for byte', () => {
  // no controllers: nothing but the test writes between a write and the read that follows it
  let q: TestClient;
  beforeAll(async () => {
    q = await testClient(createMemoryStorage(), { controllers: [] });
    await prepare(q);
  });
  const JSON_BODY = { 'Content-Type': 'application/json' };
  const rvOf = (text: string) => (JSON.parse(text) as KubeObject).metadata?.resourceVersion;
  for (const def of kinds) {
    it(`${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}: create, update, no-op update and merge patch`, async () => {
      const created = await q.raw('POST', path(def), JSON.stringify(sample(def, 'bytes')), JSON_BODY);
      const createdText = await created.text();
      expect(created.status, createdText).toBe(201);
      const name = (JSON.parse(createdText) as KubeObject).metadata!.name!;
      const read = async () => (await q.raw('GET', path(def, name))).text();

      const got = await read();
      expect(rvOf(got)).toBe(rvOf(createdText));
      expect(createdText).toBe(got);

      const labelled = JSON.parse(got) as KubeObject;
      labelled.metadata!.labels = { ...labelled.metadata!.labels, bytes: 'put' };
      const put = await q.raw('PUT', path(def, name), JSON.stringify(labelled), JSON_BODY);
      const putText = await put.text();
      expect(put.status, putText).toBe(200);
      expect(rvOf(putText)).not.toBe(rvOf(got));
      expect(putText).toBe(await read());

      const same = await q.raw('PUT', path(def, name), putText, JSON_BODY);
      const sameText = await same.text();
      expect(same.status, sameText).toBe(200);
      expect(rvOf(sameText)).toBe(rvOf(putText));
      expect(sameText).toBe(await read());

      const patched = await q.raw('PATCH', path(def, name), JSON.stringify({ metadata: { labels: { bytes: 'patch' } } }), { 'Content-Type': 'application/merge-patch+json' });
      const patchedText = await patched.text();
      expect(patched.status, patchedText).toBe(200);
      expect(patchedText).toBe(await read());
      // pretty output is the same object, indented
      const pretty = await q.raw('PATCH', `${path(def, name)}?pretty=true`, JSON.stringify({ metadata: { labels: { bytes: 'pretty' } } }), { 'Content-Type': 'application/merge-patch+json' });
      expect(await pretty.text()).toBe(`${JSON.stringify(JSON.parse(await read()), null, 2)}\n`);
    });
  }
});
