// Admission webhooks outside the write lock: a webhook whose HTTP call is held open delays its own request
// only. Other objects, other namespaces and the controllers keep writing; a write whose object changed while
// its webhook answered runs again from a fresh read (admission called again), as the real server's
// GuaranteedUpdate retries its compare-and-swap; a resourceVersion precondition turns that into the real 409.
// Each test holds calls open until several requests are in admission at once, which a global lock forbids.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import type { OutboundHttp } from '../../env.js';
import { fakeEnv, testClient, type FakeEnv, type TestClient, type TestResponse } from '../../testing/harness.js';
import { until, within } from '../../testing/wait.js';

type Review = { request: Record<string, any> };
interface Call {
  review: Review;
  answer(response?: Record<string, unknown>): void;
}

/** Outgoing HTTP whose calls stay open until the test answers them (or every one at once when `auto`). */
function heldHttp() {
  const pending: Call[] = [];
  const all: Review[] = [];
  let auto: ((review: Review) => Record<string, unknown> | Promise<Record<string, unknown>>) | undefined;
  const http: OutboundHttp = {
    post(_url, body) {
      const review = JSON.parse(body) as Review;
      all.push(review);
      return new Promise((resolve) => {
        const answer = (response: Record<string, unknown> = { allowed: true }) =>
          resolve({ status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } }) });
        if (auto) void Promise.resolve(auto(review)).then(answer);
        else pending.push({ review, answer });
      });
    },
  };
  return {
    http,
    pending,
    all,
    /** Answers every call from now on (and those open) with `respond`'s answer. */
    autoAnswer(respond: (review: Review) => Record<string, unknown> | Promise<Record<string, unknown>> = () => ({ allowed: true })) {
      auto = respond;
      for (const c of pending.splice(0)) void Promise.resolve(respond(c.review)).then(c.answer);
    },
  };
}

const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const CM = '/api/v1/namespaces/default/configmaps';
const hook = (operations: string[], extra: Record<string, unknown> = {}) => ({
  name: 'hold.example.com', clientConfig: { url: 'https://hooks.example.com/validate' }, sideEffects: 'None', admissionReviewVersions: ['v1'],
  rules: [{ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], ...extra,
});

let env: FakeEnv;
let held: ReturnType<typeof heldHttp>;
let c: TestClient;

async function setup(opts: { controllers?: [] } = {}) {
  held = heldHttp();
  env = { ...fakeEnv(), http: held.http };
  c = await testClient(createMemoryStorage(), { env, ...opts });
  await c.settle();
}

async function webhook(operations: string[], extra: Record<string, unknown> = {}) {
  const r = await c.req('POST', VWC, { metadata: { name: 'hold' }, webhooks: [hook(operations, extra)] });
  expect(r.status, r.text).toBe(201);
}

async function ok(p: Promise<TestResponse>, status = 200): Promise<TestResponse> {
  const r = await p;
  expect(r.status, r.text).toBe(status);
  return r;
}

const modified = (name: string) =>
  `Operation cannot be fulfilled on configmaps "${name}": the object has been modified; please apply your changes to the latest version and try again`;

describe('a held webhook call delays its own request only', () => {
  beforeEach(() => setup());

  it('creates and updates of other objects, another namespace and the controllers go on meanwhile', async () => {
    await ok(c.req('POST', CM, { metadata: { name: 'before' }, data: { a: '1' } }), 201);
    await webhook(['CREATE', 'UPDATE'], { objectSelector: { matchLabels: { hold: 'yes' } } });
    const slow = c.req('POST', CM, { metadata: { name: 'slow', labels: { hold: 'yes' } }, data: { a: '1' } });
    await until('the webhook call', () => held.pending.length === 1);

    await within('a create of another object', ok(c.req('POST', CM, { metadata: { name: 'other' }, data: { a: '1' } }), 201));
    await within('an update of another object', ok(c.req('PUT', `${CM}/before`, { metadata: { name: 'before' }, data: { a: '2' } })));
    await within('a create in another namespace', ok(c.req('POST', '/api/v1/namespaces', { metadata: { name: 'elsewhere' } }), 201));
    await within('a write in it', ok(c.req('POST', '/api/v1/namespaces/elsewhere/configmaps', { metadata: { name: 'x' } }), 201));
    // the quota controller writes the status of a new quota
    await ok(c.req('POST', '/api/v1/namespaces/elsewhere/resourcequotas', { metadata: { name: 'q' }, spec: { hard: { pods: '1' } } }), 201);
    await within('the controllers', (async () => {
      for (;;) {
        await c.settle();
        if ((await c.req('GET', '/api/v1/namespaces/elsewhere/resourcequotas/q')).body.status?.hard) return;
      }
    })());
    expect(held.pending).toHaveLength(1);
    expect((await c.req('GET', `${CM}/slow`)).status).toBe(404);

    held.pending[0].answer();
    const r = await ok(slow, 201);
    expect(r.body.metadata.labels).toEqual({ hold: 'yes' });
    expect((await c.req('GET', `${CM}/slow`)).body.metadata.uid).toBe(r.body.metadata.uid);
  });
});

describe('one request at a time', () => {
  it('never runs a write twice: each is prepared, checked and committed once, webhook or not', async () => {
    await setup({ controllers: [] });
    held.autoAnswer();
    await webhook(['CREATE', 'UPDATE', 'DELETE']);
    const store = c.server.engine.store;
    const retries = store.retries;
    await ok(c.req('POST', CM, { metadata: { name: 'one' }, data: { a: '1' } }), 201);
    await ok(c.req('POST', CM, { metadata: { generateName: 'one-' } }), 201);
    await ok(c.req('PUT', `${CM}/one`, { metadata: { name: 'one' }, data: { a: '2' } }));
    await ok(c.raw('PATCH', `${CM}/one`, JSON.stringify({ data: { b: '1' } }), { 'Content-Type': 'application/merge-patch+json' }).then(async (r) => ({ status: r.status, text: await r.text() }) as TestResponse));
    await ok(c.raw('PATCH', `${CM}/two?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two' } }), { 'Content-Type': 'application/apply-patch+yaml' }).then(async (r) => ({ status: r.status, text: await r.text() }) as TestResponse), 201);
    await ok(c.req('DELETE', `${CM}/one`));
    await ok(c.req('DELETE', `${CM}/two`));
    expect(held.all.map((r) => r.request.operation)).toEqual(['CREATE', 'CREATE', 'UPDATE', 'UPDATE', 'CREATE', 'DELETE', 'DELETE']);
    expect(store.retries).toBe(retries);
  });
});

describe('two writes of one object while a webhook answers', () => {
  beforeEach(async () => {
    await setup();
    await ok(c.req('POST', CM, { metadata: { name: 'x' }, data: { base: '0' } }), 201);
    await webhook(['UPDATE']);
  });

  it('a patch without resourceVersion runs again on the newer object (the webhook is called again) and both land', async () => {
    const retries = c.server.engine.store.retries;
    const first = c.raw('PATCH', `${CM}/x`, JSON.stringify({ data: { a: '1' } }), { 'Content-Type': 'application/merge-patch+json' });
    await until('the first call', () => held.pending.length === 1);
    const second = c.raw('PATCH', `${CM}/x`, JSON.stringify({ data: { b: '2' } }), { 'Content-Type': 'application/merge-patch+json' });
    await until('the second call while the first is open', () => held.pending.length === 2);
    held.pending[1].answer();
    expect((await second).status).toBe(200);
    held.pending[0].answer();
    // the first write found x changed at its commit: it patched the new x and asked the webhook again
    await until('the call of the second attempt', () => held.pending.length === 3);
    const retry = held.pending[2].review.request;
    expect(retry.oldObject.data).toEqual({ base: '0', b: '2' });
    expect(retry.object.data).toEqual({ base: '0', a: '1', b: '2' });
    held.pending[2].answer();
    const r = await first;
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, any>;
    expect(body.data).toEqual({ base: '0', a: '1', b: '2' });
    expect((await c.req('GET', `${CM}/x`)).body.data).toEqual({ base: '0', a: '1', b: '2' });
    expect(c.server.engine.store.retries - retries).toBe(1);
  });

  it('a burst of patches of one object: each that lost runs once more, in turn, and all land', async () => {
    const store = c.server.engine.store;
    const retries = store.retries;
    const n = 6;
    const patches = Array.from({ length: n }, (_, i) => c.raw('PATCH', `${CM}/x`, JSON.stringify({ data: { [`k${i}`]: 'v' } }), { 'Content-Type': 'application/merge-patch+json' }));
    await until('every patch in admission at once', () => held.pending.length === n);
    held.autoAnswer();
    expect((await Promise.all(patches)).map((r) => r.status)).toEqual(Array(n).fill(200));
    // one won; the others ran again one after the other (each read what the one before left), so none lost twice
    expect(store.retries - retries).toBe(n - 1);
    expect(held.all).toHaveLength(2 * n - 1);
    expect(Object.keys((await c.req('GET', `${CM}/x`)).body.data).sort()).toEqual(['base', 'k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
    // the queue of retries by key is empty once they have ended
    expect((store as unknown as { retrying: Map<string, unknown> }).retrying.size).toBe(0);
  });

  it("a mutating webhook's patch is applied once, to the object the retry read", async () => {
    const MWC = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
    const r = await c.req('POST', MWC, { metadata: { name: 'mutate' }, webhooks: [{ ...hook(['UPDATE']), name: 'mutate.example.com' }] });
    expect(r.status, r.text).toBe(201);
    // the webhook appends a finalizer to the write that sets data.a: applied to an object it had already
    // mutated (the first attempt's), there would be two
    const mutate = (review: Review) => {
      const o = review.request.object;
      if (o.data?.a !== '1' || review.request.kind.kind !== 'ConfigMap') return { allowed: true };
      const ops = o.metadata.finalizers ? [{ op: 'add', path: '/metadata/finalizers/-', value: 'example.com/m' }] : [{ op: 'add', path: '/metadata/finalizers', value: ['example.com/m'] }];
      return { allowed: true, patchType: 'JSONPatch', patch: btoa(JSON.stringify(ops)) };
    };
    const first = c.raw('PATCH', `${CM}/x`, JSON.stringify({ data: { a: '1' } }), { 'Content-Type': 'application/merge-patch+json' });
    await until('the mutating call', () => held.pending.length === 1);
    const second = c.raw('PATCH', `${CM}/x`, JSON.stringify({ data: { b: '2' } }), { 'Content-Type': 'application/merge-patch+json' });
    await until('the second mutating call', () => held.pending.length === 2);
    held.pending[1].answer(mutate(held.pending[1].review));
    held.pending.splice(1, 1);
    await until('the second write to land', () => held.pending.length === 2);
    held.autoAnswer(mutate);
    const [rf, rs] = await Promise.all([first, second]);
    expect([rf.status, rs.status]).toEqual([200, 200]);
    const x = (await c.req('GET', `${CM}/x`)).body;
    expect(x.data).toEqual({ base: '0', a: '1', b: '2' });
    expect(x.metadata.finalizers).toEqual(['example.com/m']);
    // the first write: mutating and validating call of its first attempt, then of its second
    expect(held.all.filter((v) => v.request.object.data.a === '1').map((v) => v.request.object.metadata.finalizers)).toEqual([undefined, ['example.com/m'], undefined, ['example.com/m']]);
  });

  it('a server-side apply runs again likewise, and its managedFields are those of the newer object', async () => {
    const applied = c.raw('PATCH', `${CM}/x?fieldManager=tool`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } }), { 'Content-Type': 'application/apply-patch+yaml' });
    await until('the apply call', () => held.pending.length === 1);
    const other = c.raw('PATCH', `${CM}/x?fieldManager=other`, JSON.stringify({ data: { b: '2' } }), { 'Content-Type': 'application/merge-patch+json' });
    await until('the patch call', () => held.pending.length === 2);
    held.pending[1].answer();
    expect((await other).status).toBe(200);
    held.pending[0].answer();
    await until('the apply again', () => held.pending.length === 3);
    held.pending[2].answer();
    const r = await applied;
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, any>;
    expect(body.data).toEqual({ base: '0', a: '1', b: '2' });
    expect(body.metadata.managedFields.map((m: any) => m.manager).sort()).toEqual(['other', 'tool', 'unknown']);
    expect(body.metadata.managedFields.find((m: any) => m.manager === 'tool').fieldsV1).toEqual({ 'f:data': { 'f:a': {} } });
    expect(body.metadata.managedFields.find((m: any) => m.manager === 'other').fieldsV1).toEqual({ 'f:data': { 'f:b': {} } });
  });

  /** A merge patch of x with `data` held at its webhook call while a PUT of x lands; the patch is left waiting. */
  async function patchThenPutLands(data: Record<string, string>): Promise<{ patch: Promise<Response>; put: TestResponse }> {
    const patch = c.raw('PATCH', `${CM}/x`, JSON.stringify({ data }), { 'Content-Type': 'application/merge-patch+json' });
    await until('the webhook call', () => held.pending.length === 1);
    const putting = c.req('PUT', `${CM}/x`, { metadata: { name: 'x' }, data: { a: '2' } });
    await until("the put's call", () => held.pending.length === 2);
    held.pending[1].answer();
    return { patch, put: await ok(within('the put', putting)) };
  }

  it('a patch that changes nothing on the object it read runs again once another write landed, and lands on it', async () => {
    // a no-op on the object as created
    const { patch, put } = await patchThenPutLands({ base: '0' });
    // the patch's first call, then its second one on the newer object
    held.autoAnswer();
    const r = await within('the patch', patch);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { data: unknown; metadata: { resourceVersion: string } };
    // not the first attempt's no-op answer (the object as it was read): the patch applied to the newer one
    expect(body.data).toEqual({ a: '2', base: '0' });
    expect(Number(body.metadata.resourceVersion)).toBeGreaterThan(Number(put.body.metadata.resourceVersion));
    expect((await c.req('GET', `${CM}/x`)).body.data).toEqual({ a: '2', base: '0' });
  });

  it("the answer of a write that ran again carries every attempt's warnings, each once", async () => {
    const { patch } = await patchThenPutLands({ p: '1' });
    // the patch's first call warns one thing; its second, on the newer object, that again and another
    held.pending[0].answer({ allowed: true, warnings: ['first look'] });
    held.autoAnswer(() => ({ allowed: true, warnings: ['second look', 'first look'] }));
    const r = await within('the patch', patch);
    expect(r.status).toBe(200);
    expect(held.all).toHaveLength(3);
    expect(r.headers.get('Warning')).toBe('299 - "first look", 299 - "second look"');
  });

  it('an update that carries the resourceVersion it read gets the real 409 once another write landed', async () => {
    const cur = (await c.req('GET', `${CM}/x`)).body;
    const put = c.req('PUT', `${CM}/x`, { metadata: { name: 'x', resourceVersion: cur.metadata.resourceVersion }, data: { put: 'yes' } });
    await until('the put call', () => held.pending.length === 1);
    const patch = c.raw('PATCH', `${CM}/x`, JSON.stringify({ data: { b: '2' } }), { 'Content-Type': 'application/merge-patch+json' });
    await until('the patch call', () => held.pending.length === 2);
    held.pending[1].answer();
    expect((await patch).status).toBe(200);
    held.pending[0].answer();
    const r = await put;
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: modified('x'), reason: 'Conflict',
      details: { name: 'x', kind: 'configmaps' }, code: 409,
    });
    // the precondition fails before admission on the fresh read: no third call
    expect(held.all).toHaveLength(2);
    expect((await c.req('GET', `${CM}/x`)).body.data).toEqual({ base: '0', b: '2' });
  });

  it('a PUT without resourceVersion runs again with the body as sent, not as the first attempt left it', async () => {
    const put = c.req('PUT', `${CM}/x`, { metadata: { name: 'x', labels: { l: 'v' } }, data: { put: 'yes' } });
    await until('the put call', () => held.pending.length === 1);
    const patch = c.raw('PATCH', `${CM}/x?fieldManager=other`, JSON.stringify({ metadata: { annotations: { n: 'v' } } }), { 'Content-Type': 'application/merge-patch+json' });
    await until('the patch call', () => held.pending.length === 2);
    held.pending[1].answer();
    expect((await patch).status).toBe(200);
    held.pending[0].answer();
    await until('the put again', () => held.pending.length === 3);
    // the request's object again: no uid, creationTimestamp or managedFields of the first attempt in it
    held.pending[2].answer();
    const r = await ok(put);
    expect(r.body.data).toEqual({ put: 'yes' });
    // a PUT replaces the object: the annotation the patch set is gone, and so is its manager's entry
    expect(r.body.metadata.annotations).toBeUndefined();
    expect(r.body.metadata.managedFields.map((m: any) => m.manager)).toEqual(['unknown']);
    expect(r.body.metadata.managedFields[0].fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:put': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:l': {} } } });
  });
});

describe('creates racing for a name', () => {
  beforeEach(async () => {
    await setup();
    await webhook(['CREATE']);
  });

  it('the second create of a name gets AlreadyExists', async () => {
    const a = c.req('POST', CM, { metadata: { name: 'dup' }, data: { from: 'a' } });
    const b = c.req('POST', CM, { metadata: { name: 'dup' }, data: { from: 'b' } });
    await until('both calls', () => held.pending.length === 2);
    held.pending[1].answer();
    held.pending[0].answer();
    const [ra, rb] = await Promise.all([a, b]);
    expect(rb.status, rb.text).toBe(201);
    expect(ra.status).toBe(409);
    expect(ra.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "dup" already exists', reason: 'AlreadyExists',
      details: { name: 'dup', kind: 'configmaps' }, code: 409,
    });
    expect((await c.req('GET', `${CM}/dup`)).body.data).toEqual({ from: 'b' });
  });

  it('a server-side apply that creates, racing a create of the name, runs again as an update of what the create made', async () => {
    const applied = c.raw('PATCH', `${CM}/both?fieldManager=tool`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'both' }, data: { a: '1' } }), { 'Content-Type': 'application/apply-patch+yaml' });
    await until('the apply call', () => held.pending.length === 1);
    expect(held.pending[0].review.request.operation).toBe('CREATE');
    const created = c.req('POST', CM, { metadata: { name: 'both' }, data: { b: '2' } });
    await until('the create call', () => held.pending.length === 2);
    held.pending[1].answer();
    expect((await created).status).toBe(201);
    held.pending[0].answer();
    // the retry found the object: no webhook on UPDATE here, so it lands at once
    const r = await applied;
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, any>;
    expect(body.data).toEqual({ a: '1', b: '2' });
    // as a create and then an apply one after the other leave them
    expect(body.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.fieldsV1])).toEqual([
      ['tool', 'Apply', { 'f:data': { 'f:a': {} } }],
      ['unknown', 'Update', { 'f:data': { '.': {}, 'f:b': {} } }],
    ]);
    expect(held.all.map((x) => x.request.operation)).toEqual(['CREATE', 'CREATE']);
  });

  it('a generated name taken meanwhile is generated again', async () => {
    const suffix = env.ids.suffix;
    const names = ['aaaaa', 'aaaaa'];
    env.ids.suffix = (n) => names.shift() ?? suffix(n);
    const a = c.req('POST', CM, { metadata: { generateName: 'gen-' } });
    const b = c.req('POST', CM, { metadata: { generateName: 'gen-' } });
    await until('both calls', () => held.pending.length === 2);
    expect(held.pending.map((p) => p.review.request.object.metadata.name)).toEqual(['gen-aaaaa', 'gen-aaaaa']);
    held.pending[0].answer();
    held.pending[1].answer();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.status, ra.text).toBe(201);
    expect(rb.status, rb.text).toBe(201);
    expect(ra.body.metadata.name).toBe('gen-aaaaa');
    expect(rb.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(rb.body.metadata.name).not.toBe('gen-aaaaa');
  });
});

describe('Services racing for one address or node port', () => {
  // the clusterIP and nodePorts are chosen against every Service the create read: a Service created since
  // makes the other create run again (and choose again, or be refused), as the real allocators' own
  // compare-and-swap does; both creates wait in the webhook, so both read the cluster without the other
  beforeEach(async () => {
    await setup();
    const r = await c.req('POST', VWC, { metadata: { name: 'hold' }, webhooks: [{ ...hook(['CREATE']), rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['services'] }] }] });
    expect(r.status, r.text).toBe(201);
    await ok(c.req('POST', '/api/v1/namespaces', { metadata: { name: 'other' } }), 201);
  });
  const service = (name: string, spec: Record<string, unknown>) => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });

  it('two creates asking for one clusterIP: one gets it, the other the real 422', async () => {
    const a = c.req('POST', '/api/v1/namespaces/default/services', service('a', { clusterIP: '10.96.5.5' }));
    const b = c.req('POST', '/api/v1/namespaces/other/services', service('b', { clusterIP: '10.96.5.5' }));
    await until('both calls', () => held.pending.length === 2);
    held.pending[1].answer();
    const rb = await within('the first create', b);
    expect(rb.status, rb.text).toBe(201);
    // the other create, and its second admission on the newer state
    held.autoAnswer();
    const ra = await within('the second create', a);
    expect(ra.status, ra.text).toBe(422);
    expect(ra.body.message).toBe('Service "a" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.5.5"}: failed to allocate IP 10.96.5.5: provided IP is already allocated');
    // it ran again on the newer state, where the allocation refuses the address before validating admission
    expect(held.all).toHaveLength(2);
  });

  it('two creates asking for one nodePort: one gets it, the other the real 422', async () => {
    const a = c.req('POST', '/api/v1/namespaces/default/services', service('a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    const b = c.req('POST', '/api/v1/namespaces/other/services', service('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    await until('both calls', () => held.pending.length === 2);
    held.pending[0].answer();
    const ra = await within('the first create', a);
    held.autoAnswer();
    const rb = await within('the second create', b);
    expect(ra.status, ra.text).toBe(201);
    expect(rb.status, rb.text).toBe(422);
    expect(rb.body.message).toContain('spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
  });

  it('two creates that let the cluster choose get two addresses and two node ports', async () => {
    const a = c.req('POST', '/api/v1/namespaces/default/services', service('a', { type: 'NodePort' }));
    const b = c.req('POST', '/api/v1/namespaces/other/services', service('b', { type: 'NodePort' }));
    await until('both calls', () => held.pending.length === 2);
    held.autoAnswer();
    const [ra, rb] = await within('both creates', Promise.all([a, b]));
    expect(ra.status, ra.text).toBe(201);
    expect(rb.status, rb.text).toBe(201);
    expect(ra.body.spec.clusterIP).not.toBe(rb.body.spec.clusterIP);
    expect(ra.body.spec.ports[0].nodePort).not.toBe(rb.body.spec.ports[0].nodePort);
  });
});

describe('ResourceQuota under concurrent creates', () => {
  // no quota controller: status.used is what admission charged, nothing recalculates it
  beforeEach(async () => {
    await setup({ controllers: [] });
    await ok(c.req('POST', '/api/v1/namespaces/default/resourcequotas', { metadata: { name: 'q' }, spec: { hard: { 'count/configmaps': '3' } } }), 201);
    await ok(c.req('PUT', '/api/v1/namespaces/default/resourcequotas/q/status', { metadata: { name: 'q' }, spec: { hard: { 'count/configmaps': '3' } }, status: { hard: { 'count/configmaps': '3' }, used: { 'count/configmaps': '0' } } }));
    await webhook(['CREATE']);
  });

  it('every create is charged once, none over the limit: used equals the objects that exist', async () => {
    const creates = [0, 1, 2, 3, 4].map((i) => c.req('POST', CM, { metadata: { name: `c${i}` } }));
    await until('five creates in admission at once', () => held.pending.length === 5);
    held.autoAnswer();
    const rs = await Promise.all(creates);
    const created = rs.filter((r) => r.status === 201);
    const refused = rs.filter((r) => r.status !== 201);
    expect(created).toHaveLength(3);
    expect(refused.map((r) => r.status)).toEqual([403, 403]);
    for (const r of refused) {
      expect(r.body.message).toBe(`configmaps "${r.body.details.name}" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=3, limited: count/configmaps=3`);
    }
    // the root CA's ConfigMap was there before the quota (written by the engine, never charged)
    const list = await c.req('GET', CM);
    expect(list.body.items.map((i: any) => i.metadata.name).filter((n: string) => n !== 'kube-root-ca.crt').sort()).toEqual(created.map((r) => r.body.metadata.name).sort());
    expect((await c.req('GET', '/api/v1/namespaces/default/resourcequotas/q')).body.status.used).toEqual({ 'count/configmaps': '3' });
  });
});

describe('deletes while a validating webhook answers', () => {
  beforeEach(async () => {
    await setup();
    await webhook(['DELETE']);
  });

  it('a delete of an object with finalizers marks the object as another write left it', async () => {
    await ok(c.req('POST', CM, { metadata: { name: 'fin', finalizers: ['example.com/keep'] } }), 201);
    const del = c.req('DELETE', `${CM}/fin`);
    await until('the delete call', () => held.pending.length === 1);
    await within('a patch of the object', ok(c.raw('PATCH', `${CM}/fin`, JSON.stringify({ metadata: { labels: { l: 'v' } } }), { 'Content-Type': 'application/merge-patch+json' }).then(async (r) => ({ status: r.status, text: await r.text() }) as TestResponse)));
    held.pending[0].answer();
    // the object changed under the delete: it runs again, the webhook sees the patched object
    await until('the delete again', () => held.pending.length === 2);
    expect(held.pending[1].review.request.oldObject.metadata.labels).toEqual({ l: 'v' });
    held.pending[1].answer();
    const r = await ok(del);
    expect(r.body.metadata.deletionTimestamp).toBeDefined();
    expect(r.body.metadata.labels).toEqual({ l: 'v' });
    expect(r.body.metadata.finalizers).toEqual(['example.com/keep']);
  });

  it('a delete refused by the webhook on its second call leaves the object as the racing update left it', async () => {
    await ok(c.req('POST', CM, { metadata: { name: 'y' }, data: { a: '1' } }), 201);
    const del = c.req('DELETE', `${CM}/y`);
    await until('the delete call', () => held.pending.length === 1);
    await within('a put of the object', ok(c.req('PUT', `${CM}/y`, { metadata: { name: 'y' }, data: { a: '2' } })));
    held.pending[0].answer();
    await until('the delete again', () => held.pending.length === 2);
    held.pending[1].answer({ allowed: false, status: { message: 'not now' } });
    const r = await del;
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('admission webhook "hold.example.com" denied the request: not now');
    expect((await c.req('GET', `${CM}/y`)).body.data).toEqual({ a: '2' });
  });

  it('a delete that keeps losing to other writes ends: its last attempt runs under the write lock', async () => {
    await ok(c.req('POST', CM, { metadata: { name: 'hot' }, data: { n: '0' } }), 201);
    let n = 0;
    const racing: Promise<Response>[] = [];
    // every call of the webhook answers once another write of the object has landed, or after 100 ms when
    // that write cannot land (it waits for the write lock, which the delete holds while it waits here)
    held.autoAnswer(async () => {
      const patch = c.raw('PATCH', `${CM}/hot`, JSON.stringify({ data: { n: String(++n) } }), { 'Content-Type': 'application/merge-patch+json' });
      racing.push(patch);
      await Promise.race([patch, new Promise((r) => setTimeout(r, 100))]);
      return { allowed: true };
    });
    const r = await within('the delete', c.req('DELETE', `${CM}/hot`));
    expect(r.status, r.text).toBe(200);
    // four attempts lost to a patch; the fifth ran whole under the lock
    expect(held.all).toHaveLength(5);
    expect(held.all.map((r) => r.request.operation)).toEqual(['DELETE', 'DELETE', 'DELETE', 'DELETE', 'DELETE']);
    const patches = await Promise.all(racing);
    // the patches that found the object gone answer 404; those before it landed
    expect(patches.map((p) => p.status)).toEqual([200, 200, 200, 200, 404]);
    expect((await c.req('GET', `${CM}/hot`)).status).toBe(404);
  });
});
