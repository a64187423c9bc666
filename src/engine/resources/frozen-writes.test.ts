// Writes never modify a stored state, over the whole catalog: stored states are deeply frozen and shared
// (with the objects of later writes, with watch events and list answers), so a writer that changed one in
// place would throw (strict mode) or, worse, change history. For every built-in kind: create, update (PUT
// of the read object), strategic merge patch, JSON merge patch, JSON patch and server-side apply (a label
// each); before every write the stored object is deeply frozen, after it the object is unchanged (the same
// JSON) and the new stored object is deeply frozen too, decodes into the kind's type and has no undeclared
// fields (copy-on-write patches do not check again the parts they share with it).
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from './index.js';
import { sampleObject } from './samples.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../object.js';
import { checkTypes } from '../schema/validate.js';
import { findUnknownFields } from '../schema/prune.js';

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
        const fallbacks = store.copyOnWriteFallbacks;
        const r = await write();
        expect(r.status, `${what}: ${r.text}`).toBe(200);
        expect(JSON.stringify(before), `${what}: the previous state`).toBe(text);
        const after = stored();
        expect(after, `${what}: a new state`).not.toBe(before);
        expect(unfrozenPath(after), `${what}: stored object after`).toBe('');
        // what the checks of a copy-on-write patch take for granted of the parts it shares: a stored state
        // decodes into its type and has no undeclared fields
        // (in the version of the request: what a patch starts from)
        const seen = store.view(def, after);
        expect(checkTypes(seen, def.schema, def.definitions, def), `${what}: type check of the stored object`).toBeUndefined();
        expect(findUnknownFields(seen, def.schema, def.definitions), `${what}: undeclared fields of the stored object`).toEqual([]);
        // a copy-on-write kind's writers wrote nothing over the stored state's shared parts
        expect(store.copyOnWriteFallbacks - fallbacks, `${what}: copy-on-write fallbacks`).toBe(0);
      }
    });
  }
});

describe('copy-on-write kinds share what a write did not change', () => {
  const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };
  const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
  const deployments = kinds.find((d) => d.group === 'apps' && d.plural === 'deployments')!;
  const base = `/apis/apps/v1/namespaces/${nsOf(deployments)}/deployments`;
  const deployment = (name: string, image: string) => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: name } },
    spec: {
      replicas: 2, selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: ['web', 'sidecar', 'metrics'].map((c, i) => ({ name: c, image: i === 0 ? image : `example.com/${c}:1`, ports: [{ containerPort: 8080 + i }], resources: { requests: { cpu: '100m' } } })) },
      },
    },
  });
  type Dep = { spec: { selector: unknown; strategy: unknown; template: { metadata: unknown; spec: { containers: unknown[] } } }; status?: unknown };
  const stored = (name: string) => c.server.engine.store.getStored(deployments, nsOf(deployments), name) as unknown as Dep;
  /** The first container is a new object; the other containers, the selector, the strategy and the template's metadata are the stored ones. */
  const expectFirstImageOnlyChanged = (before: Dep, after: Dep) => {
    expect(after.spec.template.spec.containers[0]).not.toBe(before.spec.template.spec.containers[0]);
    expect(after.spec.template.spec.containers[1]).toBe(before.spec.template.spec.containers[1]);
    expect(after.spec.template.spec.containers[2]).toBe(before.spec.template.spec.containers[2]);
    expect(after.spec.selector).toBe(before.spec.selector);
    expect(after.spec.strategy).toBe(before.spec.strategy);
    expect(after.spec.template.metadata).toBe(before.spec.template.metadata);
  };

  it('Deployment: a strategic merge patch of one container image shares the other containers, the selector, the strategy, the template metadata and status', async () => {
    expect(deployments.copyOnWrite).toBe(true);
    expect((await c.req('PATCH', `${base}/cow-smp?fieldManager=m`, deployment('cow-smp', 'nginx:1'), APPLY)).status).toBe(201);
    const before = stored('cow-smp');
    const r = await c.req('PATCH', `${base}/cow-smp`, { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.template.spec.containers[0].image).toBe('nginx:2');
    const after = stored('cow-smp');
    expectFirstImageOnlyChanged(before, after);
    expect(after.status).toBe(before.status);
    expect(c.server.engine.store.copyOnWriteFallbacks).toBe(0);
  });

  it('Deployment: an apply that changes one container image shares what the merge did not change', async () => {
    expect((await c.req('PATCH', `${base}/cow-apply?fieldManager=m`, deployment('cow-apply', 'nginx:1'), APPLY)).status).toBe(201);
    const before = stored('cow-apply');
    const r = await c.req('PATCH', `${base}/cow-apply?fieldManager=m`, deployment('cow-apply', 'nginx:2'), APPLY);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.template.spec.containers[0].image).toBe('nginx:2');
    const after = stored('cow-apply');
    expectFirstImageOnlyChanged(before, after);
  });

  it('Deployment: kubectl\'s apply rewrites a shared last-applied annotation on a copy', async () => {
    const last = 'kubectl.kubernetes.io/last-applied-configuration';
    const first = deployment('cow-kubectl', 'nginx:1');
    const created = await c.req('POST', base, { ...first, metadata: { ...first.metadata, annotations: { [last]: '{}', other: 'kept' } } });
    expect(created.status, created.text).toBe(201);
    const before = stored('cow-kubectl') as unknown as { metadata: { annotations: Record<string, string> } };
    const r = await c.req('PATCH', `${base}/cow-kubectl?fieldManager=kubectl&force=true`, deployment('cow-kubectl', 'nginx:2'), APPLY);
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.body.metadata.annotations[last]).spec.template.spec.containers[0].image).toBe('nginx:2');
    expect(r.body.metadata.annotations.other).toBe('kept');
    expect(before.metadata.annotations[last]).toBe('{}');
  });

  it('Deployment: a JSON merge patch of the replicas shares the template, the selector and status', async () => {
    expect((await c.req('PATCH', `${base}/cow-merge?fieldManager=m`, deployment('cow-merge', 'nginx:1'), APPLY)).status).toBe(201);
    const before = stored('cow-merge');
    const r = await c.req('PATCH', `${base}/cow-merge`, { spec: { replicas: 5 } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.replicas).toBe(5);
    const after = stored('cow-merge');
    expect(after.spec).not.toBe(before.spec);
    expect(after.spec.template).toBe(before.spec.template);
    expect(after.spec.selector).toBe(before.spec.selector);
    expect(after.spec.strategy).toBe(before.spec.strategy);
    expect(after.status).toBe(before.status);
  });

  it('Deployment: a status write shares the spec and the pinned labels, and leaves the stored state as it was', async () => {
    const store = c.server.engine.store;
    expect((await c.req('PATCH', `${base}/cow-status?fieldManager=m`, deployment('cow-status', 'nginx:1'), APPLY)).status).toBe(201);
    const before = stored('cow-status');
    const text = JSON.stringify(before);
    const fallbacks = store.copyOnWriteFallbacks;
    const got = (await c.req('GET', `${base}/cow-status`)).body;
    got.status = { replicas: 2, observedGeneration: 1 };
    got.metadata.labels = { changed: 'ignored' };
    const r = await c.req('PUT', `${base}/cow-status/status`, got);
    expect(r.status, r.text).toBe(200);
    expect(r.body.status.replicas).toBe(2);
    const after = stored('cow-status') as unknown as Dep & { metadata: { labels: unknown } };
    expect(after.spec).toBe(before.spec);
    expect(after.metadata.labels).toBe((before as unknown as { metadata: { labels: unknown } }).metadata.labels);
    expect(unfrozenPath(after)).toBe('');
    expect(JSON.stringify(before)).toBe(text);
    expect(store.copyOnWriteFallbacks).toBe(fallbacks);
  });

  it('Pod: a status write and a label patch share the spec (requests defaulted from limits, IPs mirrored) without a fallback', async () => {
    const store = c.server.engine.store;
    const pods = kinds.find((d) => d.group === '' && d.plural === 'pods')!;
    expect(pods.copyOnWrite).toBe(true);
    const ns = nsOf(pods);
    const podPath = `/api/v1/namespaces/${ns}/pods`;
    const created = await c.req('POST', podPath, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cow-pod' },
      spec: { containers: [{ name: 'a', image: 'nginx:1', resources: { limits: { cpu: '1', memory: '1Gi' } } }, { name: 'b', image: 'nginx:1' }] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec.containers[0].resources.requests).toEqual({ cpu: '1', memory: '1Gi' });
    const storedPod = () => store.getStored(pods, ns, 'cow-pod') as unknown as { spec: unknown; status: { podIP?: string; podIPs?: unknown } };
    const fallbacks = store.copyOnWriteFallbacks;
    const got = (await c.req('GET', `${podPath}/cow-pod`)).body;
    got.status = { ...got.status, phase: 'Running', podIP: '10.0.0.7', hostIP: '10.1.0.1' };
    let before = storedPod();
    let r = await c.req('PUT', `${podPath}/cow-pod/status`, got);
    expect(r.status, r.text).toBe(200);
    expect(r.body.status.podIPs).toEqual([{ ip: '10.0.0.7' }]);
    expect(storedPod().spec).toBe(before.spec);
    before = storedPod();
    r = await c.req('PATCH', `${podPath}/cow-pod`, { metadata: { labels: { l: 'x' } } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(storedPod().spec).toBe(before.spec);
    expect(storedPod().status).toBe(before.status);
    expect(store.copyOnWriteFallbacks).toBe(fallbacks);
  });

  it('Pod: mutating admission on an update copies a shared spec before it writes (a state stored without the default tolerations)', async () => {
    const store = c.server.engine.store;
    const pods = kinds.find((d) => d.group === '' && d.plural === 'pods')!;
    const ns = nsOf(pods);
    const podPath = `/api/v1/namespaces/${ns}/pods`;
    const created = await c.req('POST', podPath, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cow-tol' }, spec: { containers: [{ name: 'a', image: 'nginx:1' }] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec.tolerations).toHaveLength(2);
    // as an engine without DefaultTolerationSeconds would have stored it
    await store.guaranteedUpdate(pods, ns, 'cow-tol', (cur) => {
      delete (cur.spec as { tolerations?: unknown }).tolerations;
      return cur;
    }, { dryRun: false });
    const before = store.getStored(pods, ns, 'cow-tol') as unknown as { spec: { tolerations?: unknown } };
    expect(before.spec.tolerations).toBeUndefined();
    const fallbacks = store.copyOnWriteFallbacks;
    const r = await c.req('PATCH', `${podPath}/cow-tol`, { metadata: { labels: { l: 'x' } } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.tolerations.map((t: { key: string }) => t.key)).toEqual(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
    expect(before.spec.tolerations).toBeUndefined();
    expect(store.copyOnWriteFallbacks).toBe(fallbacks);
  });

  it('Deployment: a no-op apply keeps the stored state', async () => {
    expect((await c.req('PATCH', `${base}/cow-noop?fieldManager=m`, deployment('cow-noop', 'nginx:1'), APPLY)).status).toBe(201);
    const before = stored('cow-noop');
    const r = await c.req('PATCH', `${base}/cow-noop?fieldManager=m`, deployment('cow-noop', 'nginx:1'), APPLY);
    expect(r.status, r.text).toBe(200);
    expect(stored('cow-noop')).toBe(before);
  });

  it('Deployment: a stored state that lacks a default (written before the default existed) is defaulted on a copy', async () => {
    const store = c.server.engine.store;
    expect((await c.req('PATCH', `${base}/cow-old?fieldManager=m`, deployment('cow-old', 'nginx:1'), APPLY)).status).toBe(201);
    // the state as an older engine could have stored it: without spec.strategy.rollingUpdate.maxSurge
    await store.guaranteedUpdate(deployments, nsOf(deployments), 'cow-old', (cur) => {
      delete (cur.spec as { strategy: { rollingUpdate: Record<string, unknown> } }).strategy.rollingUpdate.maxSurge;
      return cur;
    }, { dryRun: false });
    const lacking = stored('cow-old') as unknown as { spec: { strategy: { rollingUpdate: { maxSurge?: unknown } } } };
    expect(lacking.spec.strategy.rollingUpdate.maxSurge).toBeUndefined();
    const fallbacks = store.copyOnWriteFallbacks;
    const r = await c.req('PATCH', `${base}/cow-old`, { metadata: { labels: { touched: 'yes' } } }, SMP);
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.strategy.rollingUpdate.maxSurge).toBe('25%');
    expect(store.copyOnWriteFallbacks).toBe(fallbacks + 1);
    // the old state is as it was
    expect(lacking.spec.strategy.rollingUpdate.maxSurge).toBeUndefined();
    store.copyOnWriteFallbacks = fallbacks;
  });
});
