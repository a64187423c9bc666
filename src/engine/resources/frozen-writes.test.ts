// Writes never modify a stored state, over the whole catalog: stored states are deeply frozen and shared
// (with the objects of later writes, with watch events and list answers), so a writer that changed one in
// place would throw (strict mode) or, worse, change history. For every built-in kind: create, update (PUT
// of the read object), strategic merge patch, JSON merge patch, JSON patch and server-side apply (a label
// each); before every write the stored object is deeply frozen, after it the object is unchanged (the same
// JSON) and the new stored object is deeply frozen too.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from './index.js';
import { sampleObject } from './samples.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../object.js';

const kinds = builtinResources;

function nsOf(def: ResourceDefinition): string {
  return `fz-${kinds.indexOf(def)}`;
}

function path(def: ResourceDefinition, name?: string): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return `${base}${def.namespaced ? `/namespaces/${nsOf(def)}` : ''}/${def.plural}${name ? `/${name}` : ''}`;
}

/** Every object and array under `v` (itself included) is frozen; the first path that is not, else ''. */
function unfrozenPath(v: unknown, at = ''): string {
  if (v === null || typeof v !== 'object') return '';
  if (!Object.isFrozen(v)) return at || '<root>';
  for (const [k, x] of Object.entries(v)) {
    const p = unfrozenPath(x, `${at}.${k}`);
    if (p) return p;
  }
  return '';
}

let c: TestClient;

beforeAll(async () => {
  // no controllers: only the test's writes change the objects
  c = await testClient(createMemoryStorage(), { controllers: [] });
  for (const def of kinds) if (def.namespaced) expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: nsOf(def) } })).status).toBe(201);
});

describe('writes leave stored states as they were (deeply frozen, unchanged)', () => {
  for (const def of kinds) {
    it(`${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}: create, update, strategic merge patch, merge patch, JSON patch, apply`, async () => {
      const store = c.server.engine.store;
      const first = sampleObject(def, `frozen-${def.version}`, nsOf(def))!;
      const created = await c.req('POST', path(def), first);
      expect(created.status, created.text).toBe(201);
      // some kinds name their objects by rule (a CRD, an IPAddress): the name as created
      const name = created.body.metadata.name as string;
      const sample = { ...first, metadata: { ...first.metadata, name } };
      const stored = () => store.getStored(def, def.namespaced ? nsOf(def) : '', name) as KubeObject;

      const writes: [string, () => Promise<{ status: number; text: string }>][] = [
        ['update', async () => {
          const got = (await c.req('GET', path(def, name))).body as KubeObject;
          got.metadata!.labels = { ...got.metadata!.labels, frozen: 'put' };
          return c.req('PUT', path(def, name), got);
        }],
        ['strategic merge patch', () => c.req('PATCH', path(def, name), { metadata: { labels: { frozen: 'smp' } } }, { 'Content-Type': 'application/strategic-merge-patch+json' })],
        ['merge patch', () => c.req('PATCH', path(def, name), { metadata: { labels: { frozen: 'merge' } } }, { 'Content-Type': 'application/merge-patch+json' })],
        ['JSON patch', () => c.req('PATCH', path(def, name), [{ op: 'add', path: '/metadata/labels/frozen', value: 'json' }], { 'Content-Type': 'application/json-patch+json' })],
        ['apply', () => c.req('PATCH', `${path(def, name)}?fieldManager=frozen-test&force=true`, { ...sample, metadata: { ...sample.metadata, labels: { frozen: 'apply' } } }, { 'Content-Type': 'application/apply-patch+yaml' })],
      ];
      for (const [what, write] of writes) {
        const before = stored();
        expect(unfrozenPath(before), `${what}: stored object before`).toBe('');
        const text = JSON.stringify(before);
        const r = await write();
        expect(r.status, `${what}: ${r.text}`).toBe(200);
        expect(JSON.stringify(before), `${what}: the previous state`).toBe(text);
        const after = stored();
        expect(after, `${what}: a new state`).not.toBe(before);
        expect(unfrozenPath(after), `${what}: stored object after`).toBe('');
      }
    });
  }
});
