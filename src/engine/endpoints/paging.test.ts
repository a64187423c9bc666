// Chunked lists over the whole catalog: every served resource type (built-in, and custom through a CRD;
// namespaced across all namespaces and within one; cluster-scoped) pages with limit 1, 2 and N-1 to
// exactly the unpaginated list, in order, with a remainingItemCount that counts what is left.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from '../resources/index.js';
import { hasSample, sampleObject } from '../resources/samples.js';
import type { ResourceDefinition } from '../registry/types.js';
import { storageLocation } from '../registry/conversion.js';

const PER_NAMESPACE = 4;

function base(def: { group: string; version: string }): string {
  return def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
}

function collection(def: ResourceDefinition, namespace?: string): string {
  return `${base(def)}${namespace ? `/namespaces/${namespace}` : ''}/${def.plural}`;
}

interface Page {
  names: string[];
  continue?: string;
  remainingItemCount?: number;
}

async function listAll(c: TestClient, path: string): Promise<string[]> {
  const r = await c.req('GET', path);
  expect(r.status, `${path}: ${r.text}`).toBe(200);
  expect(r.body.metadata.continue).toBeUndefined();
  return r.body.items.map((o: { metadata: { namespace?: string; name: string } }) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`);
}

async function paged(c: TestClient, path: string, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let token = '';
  for (let i = 0; i < 1000; i++) {
    const r = await c.req('GET', `${path}?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
    expect(r.status, `${path} limit=${limit}: ${r.text}`).toBe(200);
    pages.push({
      names: r.body.items.map((o: { metadata: { namespace?: string; name: string } }) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`),
      continue: r.body.metadata.continue,
      remainingItemCount: r.body.metadata.remainingItemCount,
    });
    token = r.body.metadata.continue ?? '';
    if (!token) return pages;
  }
  throw new Error('paging did not end');
}

/** Pages with limit 1, 2 and N-1 and checks every page against the unpaginated list. */
async function checkPaging(c: TestClient, path: string): Promise<void> {
  const all = await listAll(c, path);
  expect(all.length, `${path} has too few objects to page`).toBeGreaterThanOrEqual(3);
  for (const limit of [1, 2, all.length - 1]) {
    const pages = await paged(c, path, limit);
    expect(pages.flatMap((p) => p.names), `${path} limit=${limit}`).toEqual(all);
    let seen = 0;
    for (const [i, p] of pages.entries()) {
      seen += p.names.length;
      const last = i === pages.length - 1;
      expect(p.names.length, `${path} limit=${limit} page ${i}`).toBe(last ? all.length - limit * (pages.length - 1) : limit);
      if (last) {
        expect(p.continue).toBeUndefined();
        expect(p.remainingItemCount).toBeUndefined();
      } else {
        expect(p.remainingItemCount, `${path} limit=${limit} page ${i}`).toBe(all.length - seen);
      }
    }
    expect(pages.length).toBe(Math.ceil(all.length / limit));
  }
}

const CRD = (scope: 'Namespaced' | 'Cluster', plural: string, kind: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.paging.example.com` },
  spec: {
    group: 'paging.example.com',
    scope,
    names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } }],
  },
});

const custom: ResourceDefinition[] = [
  { group: 'paging.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true } as ResourceDefinition,
  { group: 'paging.example.com', version: 'v1', plural: 'gizmos', kind: 'Gizmo', namespaced: false } as ResourceDefinition,
];

let c: TestClient;

beforeAll(async () => {
  c = await testClient(createMemoryStorage(), { defaultObjects: false }); // empty namespaces hold nothing
  for (const ns of ['pa', 'pb', 'pc']) expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  for (const [scope, plural, kind] of [['Namespaced', 'widgets', 'Widget'], ['Cluster', 'gizmos', 'Gizmo']] as const) {
    expect((await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD(scope, plural, kind))).status).toBe(201);
  }
  // a created CRD is served once established
  await c.env.advance(1000);
  const seeded = new Set<string>();
  for (const def of [...builtinResources, ...custom]) {
    // served forms that share one store (HPA v1/v2, core and events.k8s.io Events) are seeded once
    const at = storageLocation(def);
    if (seeded.has(`${at.group}/${at.resource}`)) continue;
    seeded.add(`${at.group}/${at.resource}`);
    for (let i = 0; i < PER_NAMESPACE; i++) {
      // names out of creation order, so that key order is not creation order
      const name = `s${(i * 7) % PER_NAMESPACE}-${def.plural.slice(0, 5)}`;
      for (const ns of def.namespaced ? ['pb', 'pa'] : ['']) {
        const body = hasSample(def)
          ? sampleObject(def, name, ns)!
          : { apiVersion: `${def.group}/${def.version}`, kind: def.kind, metadata: { name }, spec: { a: name } };
        const r = await c.req('POST', collection(def, ns || undefined), body);
        expect(r.status, `${def.plural} ${ns}/${name}: ${r.text}`).toBe(201);
      }
    }
  }
}, 60_000);

describe('chunked lists of every served resource type', () => {
  it('every built-in kind has a sample object', () => {
    expect(builtinResources.filter((d) => !hasSample(d)).map((d) => d.plural)).toEqual([]);
  });

  for (const def of [...builtinResources, ...custom]) {
    const id = `${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}`;
    if (def.namespaced) {
      it(`${id}: across all namespaces`, () => checkPaging(c, collection(def)));
      it(`${id}: within one namespace`, () => checkPaging(c, collection(def, 'pa')));
      it(`${id}: an empty namespace has one empty page`, async () => {
        const r = await c.req('GET', `${collection(def, 'pc')}?limit=1`);
        expect(r.status).toBe(200);
        expect(r.body.items).toEqual([]);
        expect(r.body.metadata.continue).toBeUndefined();
      });
    } else {
      it(`${id}: cluster-scoped`, () => checkPaging(c, collection(def)));
    }
  }

  it('a continue token of a cluster-scoped list starts after the last name, relative to the collection', async () => {
    const r = await c.req('GET', '/api/v1/namespaces?limit=1');
    const token = JSON.parse(atob(r.body.metadata.continue.replace(/-/g, '+').replace(/_/g, '/')));
    expect(token).toEqual({ v: 'meta.k8s.io/v1', rv: Number(r.body.metadata.resourceVersion), start: `${r.body.items[0].metadata.name}\u0000` });
  });
});
