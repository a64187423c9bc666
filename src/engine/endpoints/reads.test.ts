// Reads on the wire (issue 3): resourceVersion semantics, chunked lists, selectors, watch streams and
// representations, asserted as the real v1.33 server answers.
import { beforeEach, describe, expect, it } from 'vitest';
import { decode as cborgDecode } from 'cborg';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { goJsonText } from '../codec/go-format.js';
import { engineRequest } from './wire.js';

let c: TestClient;
beforeEach(async () => {
  // list and watch mechanics from a cluster of namespaces alone (no default objects in default's configmaps)
  c = await testClient(createMemoryStorage(), { defaultObjects: false });
});

const CM = '/api/v1/namespaces/default/configmaps';

/** A GET read to the end piece by piece: how many pieces the body came in, and its text. */
async function readChunks(client: TestClient, path: string): Promise<{ chunks: number; text: string }> {
  const res = await client.raw('GET', path);
  const reader = res.body!.getReader();
  const chunks: Uint8Array[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value!);
  const all = new Uint8Array(chunks.reduce((n, b) => n + b.length, 0));
  chunks.reduce((at, b) => (all.set(b, at), at + b.length), 0);
  return { chunks: chunks.length, text: new TextDecoder().decode(all) };
}
const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = { a: '1' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: Object.keys(labels).length ? { name, labels } : { name },
  data,
});

async function create(name: string, labels: Record<string, string> = {}): Promise<any> {
  const r = await c.req('POST', CM, cm(name, labels));
  expect(r.status).toBe(201);
  return r.body;
}

describe('list basics', () => {
  it('answers ConfigMapList with items in key order and the collection resourceVersion', async () => {
    await create('b');
    await create('a');
    const r = await c.req('GET', CM);
    expect(r.status).toBe(200);
    expect(r.text.startsWith('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"6"},"items":[{"metadata":{"name":"a"')).toBe(true);
    expect(r.body.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    expect(Object.keys(r.body.items[0].metadata)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields']);
    expect(r.text.endsWith(']}\n')).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------
// helpers

interface Watch {
  res: Response;
  /** Waits for `n` more events (fails after 2 s of real time). */
  take(n: number): Promise<any[]>;
  /** Resolves true when the stream has ended. */
  ended(): Promise<boolean>;
  close(): void;
}

async function watch(path: string, headers: Record<string, string> = {}): Promise<Watch> {
  const ac = new AbortController();
  const res = await c.server.handle(new Request(`http://127.0.0.1${path}`, { headers, signal: ac.signal }));
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let done = false;
  const queue: any[] = [];
  const pump = async (): Promise<void> => {
    const r = await reader.read();
    if (r.done) {
      done = true;
      return;
    }
    buf += dec.decode(r.value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      queue.push(JSON.parse(buf.slice(0, i)));
      buf = buf.slice(i + 1);
    }
  };
  const withTimeout = <T>(p: Promise<T>, what: string) =>
    Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error(`timed out waiting for ${what}; got ${JSON.stringify(queue)}`)), 2000))]);
  return {
    res,
    async take(n) {
      await withTimeout(
        (async () => {
          while (queue.length < n && !done) await pump();
        })(),
        `${n} events`,
      );
      if (queue.length < n) throw new Error(`stream ended with ${JSON.stringify(queue)}`);
      return queue.splice(0, n);
    },
    async ended() {
      await withTimeout(
        (async () => {
          while (!done) await pump();
        })(),
        'the end of the stream',
      );
      return queue.length === 0;
    },
    close: () => ac.abort(),
  };
}

/** CBOR as the real server writes it: byte strings for strings and keys; decoded back to JSON shapes here. */
function cborDecode(bytes: Uint8Array): any {
  const plain = (v: any): any =>
    v instanceof Uint8Array ? new TextDecoder().decode(v) : Array.isArray(v) ? v.map(plain) : v && typeof v === 'object' ? Object.fromEntries([...(v instanceof Map ? v.entries() : Object.entries(v))].map(([k, x]) => [plain(k), plain(x)])) : v;
  return plain(cborgDecode(bytes, { useMaps: true }));
}

const tick = () => new Promise((r) => setImmediate(r));
const rvOf = (o: any) => o.metadata.resourceVersion as string;
const namesOf = (r: any) => r.body.items.map((i: any) => i.metadata.name);

async function update(name: string, data: Record<string, string>, labels?: Record<string, string>): Promise<any> {
  const cur = (await c.req('GET', `${CM}/${name}`)).body;
  cur.data = data;
  if (labels) cur.metadata.labels = labels;
  const r = await c.req('PUT', `${CM}/${name}`, cur);
  expect(r.status).toBe(200);
  return r.body;
}

function invalidListOptions(message: string, causes: { reason: string; message: string; field: string }[]) {
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `ListOptions.meta.k8s.io "" is invalid: ${message}`,
    reason: 'Invalid', details: { group: 'meta.k8s.io', kind: 'ListOptions', causes }, code: 422,
  };
}

// ---------------------------------------------------------------------------------------------------

describe('large lists', () => {
  it('a list above 1 MiB is streamed in pieces and is the same JSON', async () => {
    const big = 'x'.repeat(2000);
    for (let i = 0; i < 600; i++) {
      const r = await c.raw('POST', CM, JSON.stringify({ metadata: { name: `big-${String(i).padStart(3, '0')}` }, data: { v: big } }), { 'Content-Type': 'application/json' });
      expect(r.status).toBe(201);
    }
    const res = await c.raw('GET', CM);
    const reader = res.body!.getReader();
    const pieces: Uint8Array[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pieces.push(value!);
    }
    expect(pieces.length).toBeGreaterThan(3);
    const text = Buffer.concat(pieces).toString();
    const list = JSON.parse(text);
    expect(list.items).toHaveLength(600);
    expect(list.items[599].metadata.name).toBe('big-599');
    expect(text).toBe(JSON.stringify(list) + '\n');
  });
});

describe('resourceVersion semantics of list', () => {
  it('unset and "0" serve the latest state; another value without limit is Not older than', async () => {
    const a = await create('a');
    await create('b');
    for (const q of ['', '?resourceVersion=0', `?resourceVersion=${rvOf(a)}`, `?resourceVersion=${rvOf(a)}&resourceVersionMatch=NotOlderThan`]) {
      const r = await c.req('GET', CM + q);
      expect(r.body.metadata.resourceVersion).toBe('6');
      expect(namesOf(r)).toEqual(['a', 'b']);
    }
  });

  it('Exact (resourceVersionMatch=Exact, or legacy limit with a resourceVersion) serves the snapshot at that version', async () => {
    const a = await create('a');
    await create('b');
    await update('a', { a: '2' });
    await c.req('DELETE', `${CM}/b`);
    await create('c');
    for (const q of [`?resourceVersion=${rvOf(a)}&resourceVersionMatch=Exact`, `?resourceVersion=${rvOf(a)}&limit=10`]) {
      const r = await c.req('GET', CM + q);
      expect(r.status).toBe(200);
      expect(r.body.metadata).toEqual({ resourceVersion: rvOf(a) });
      expect(namesOf(r)).toEqual(['a']);
      expect(r.body.items[0].data).toEqual({ a: '1' });
      expect(rvOf(r.body.items[0])).toBe(rvOf(a));
    }
    const b = await c.req('GET', `${CM}?resourceVersion=6&resourceVersionMatch=Exact`);
    expect(namesOf(b)).toEqual(['a', 'b']);
  });

  it('an Exact version older than retained history is 410 Expired', async () => {
    c = await testClient(createMemoryStorage(), { historyWindowMs: 1000, defaultObjects: false });
    const a = await create('a');
    await update('a', { a: '2' });
    await c.env.advance(5000);
    const r = await c.req('GET', `${CM}?resourceVersion=${rvOf(a)}&resourceVersionMatch=Exact`);
    expect(r.status).toBe(410);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'The resourceVersion for the provided list is too old.', reason: 'Expired', code: 410,
    });
  });

  it('invalid combinations are 422 on ListOptions with the real messages', async () => {
    let r = await c.req('GET', `${CM}?resourceVersionMatch=NotOlderThan`);
    expect(r.status).toBe(422);
    expect(r.body).toEqual(
      invalidListOptions('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided', [
        { reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided', field: 'resourceVersionMatch' },
      ]),
    );
    r = await c.req('GET', `${CM}?resourceVersionMatch=Exact&resourceVersion=0`);
    expect(r.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    r = await c.req('GET', `${CM}?resourceVersionMatch=Newest&resourceVersion=3`);
    expect(r.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""');
    r = await c.req('GET', `${CM}?resourceVersionMatch=Exact&continue=abc`);
    expect(r.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided]',
    );
    r = await c.req('GET', `${CM}?sendInitialEvents=true`);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
  });

  it('a resourceVersion with continue is 400; a malformed one is 400 on list and 500 on get', async () => {
    await create('a');
    await create('b');
    const first = await c.req('GET', `${CM}?limit=1`);
    const r = await c.req('GET', `${CM}?limit=1&continue=${first.body.metadata.continue}&resourceVersion=5`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'specifying resource version is not allowed when using continue', reason: 'BadRequest', code: 400,
    });
    // "0" is allowed with continue
    expect((await c.req('GET', `${CM}?limit=1&continue=${first.body.metadata.continue}&resourceVersion=0`)).status).toBe(200);
    const bad = await c.req('GET', `${CM}?resourceVersion=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax');
    const g = await c.req('GET', `${CM}/a?resourceVersion=abc`);
    expect(g.status).toBe(500);
    expect(g.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax', code: 500,
    });
  });

  it('a version newer than the cluster: get and list wait 3 s, then 504 Too large resource version with Retry-After', async () => {
    await create('a');
    for (const path of [`${CM}?resourceVersion=50`, `${CM}/a?resourceVersion=50`, `${CM}?resourceVersion=50&resourceVersionMatch=Exact`]) {
      let settled = false;
      const p = c.req('GET', path).then((r) => ((settled = true), r));
      await tick();
      await c.env.advance(2900);
      expect(settled).toBe(false);
      await c.env.advance(200);
      const r = await p;
      expect(r.status).toBe(504);
      expect(r.headers.get('Retry-After')).toBe('1');
      expect(r.body).toEqual({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'Timeout: Too large resource version: 50, current: 5', reason: 'Timeout',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
        code: 504,
      });
    }
  });

  it('a future version reached while waiting is served', async () => {
    await create('a');
    const p = c.req('GET', `${CM}?resourceVersion=6`);
    await c.env.advance(1000);
    await create('b');
    const r = await p;
    expect(r.status).toBe(200);
    expect(namesOf(r)).toEqual(['a', 'b']);
    const g = c.req('GET', `${CM}/a?resourceVersion=7`);
    await create('c');
    expect((await g).status).toBe(200);
  });
});

describe('chunked lists', () => {
  it('limit/continue walk a consistent snapshot with remainingItemCount, constant resourceVersion', async () => {
    for (const n of ['a', 'b', 'c', 'd', 'e']) await create(n);
    const first = await c.req('GET', `${CM}?limit=2`);
    expect(first.body.kind).toBe('ConfigMapList');
    expect(namesOf(first)).toEqual(['a', 'b']);
    expect(first.body.metadata.resourceVersion).toBe('9');
    expect(first.body.metadata.remainingItemCount).toBe(3);
    const token = first.body.metadata.continue;
    expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: 9, start: 'b\u0000' });
    expect(Object.keys(first.body.metadata)).toEqual(['resourceVersion', 'continue', 'remainingItemCount']);
    // changes after the first chunk are not shown
    await c.req('DELETE', `${CM}/c`);
    await update('d', { a: 'changed' });
    await create('bb');
    const second = await c.req('GET', `${CM}?limit=2&continue=${token}`);
    expect(namesOf(second)).toEqual(['c', 'd']);
    expect(second.body.items[1].data).toEqual({ a: '1' });
    expect(second.body.metadata.resourceVersion).toBe('9');
    expect(second.body.metadata.remainingItemCount).toBe(1);
    const last = await c.req('GET', `${CM}?limit=2&continue=${second.body.metadata.continue}`);
    expect(namesOf(last)).toEqual(['e']);
    expect(last.body.metadata).toEqual({ resourceVersion: '9' });
    // resourceVersion "0" is served from the cache, which ignores limit
    const any = await c.req('GET', `${CM}?limit=2&resourceVersion=0`);
    expect(namesOf(any)).toEqual(['a', 'b', 'bb', 'd', 'e']);
    expect(any.body.metadata).toEqual({ resourceVersion: '12' });
    // exactly at the end: no continue either
    const exact = await c.req('GET', `${CM}?limit=6`);
    expect(exact.body.metadata).toEqual({ resourceVersion: '12' });
  });

  it('omits remainingItemCount with selectors', async () => {
    for (const n of ['a', 'b', 'c', 'd']) await create(n, { app: n < 'c' ? 'x' : 'y' });
    const r = await c.req('GET', `${CM}?limit=1&labelSelector=app%3Dx`);
    expect(namesOf(r)).toEqual(['a']);
    expect(r.body.metadata.continue).toBeTruthy();
    expect(r.body.metadata.remainingItemCount).toBeUndefined();
    const r2 = await c.req('GET', `${CM}?limit=1&labelSelector=app%3Dx&continue=${r.body.metadata.continue}`);
    expect(namesOf(r2)).toEqual(['b']);
  });

  it('a malformed continue token is a 400', async () => {
    let r = await c.req('GET', `${CM}?limit=1&continue=!!!`);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('invalid continue token: continue key is not valid: illegal base64 data at input byte 0');
    const tok = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    r = await c.req('GET', `${CM}?limit=1&continue=${tok({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' })}`);
    expect(r.body.message).toBe('invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
    r = await c.req('GET', `${CM}?limit=1&continue=${tok({ v: 'meta.k8s.io/v1', rv: 3, start: '' })}`);
    expect(r.body.message).toBe('invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
    r = await c.req('GET', `${CM}?limit=1&continue=${tok({ v: 'v2', rv: 3, start: 'a' })}`);
    expect(r.body.message).toBe('invalid continue token: continue key is not valid: server does not recognize this encoded version v2');
    r = await c.req('GET', `${CM}?limit=1&continue=${tok({ v: 'meta.k8s.io/v1', rv: 3, start: '../../secrets' })}`);
    expect(r.body.message).toBe('invalid continue token: continue key is not valid: ../../secrets');
  });

  it('a token whose version was compacted is 410 with a token that continues at the latest state', async () => {
    c = await testClient(createMemoryStorage(), { historyWindowMs: 1000, defaultObjects: false });
    for (const n of ['a', 'b', 'c']) await create(n);
    const first = await c.req('GET', `${CM}?limit=1`);
    await update('a', { a: '2' });
    await create('d');
    await c.env.advance(5000);
    const r = await c.req('GET', `${CM}?limit=1&continue=${first.body.metadata.continue}`);
    expect(r.status).toBe(410);
    const next = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: -1, start: 'a\u0000' })).toString('base64url');
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: { continue: next }, status: 'Failure',
      message:
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      reason: 'Expired', code: 410,
    });
    const rest = await c.req('GET', `${CM}?limit=10&continue=${next}`);
    expect(rest.status).toBe(200);
    expect(namesOf(rest)).toEqual(['b', 'c', 'd']);
    expect(rest.body.metadata.resourceVersion).toBe('9');
  });
});

describe('selectors', () => {
  it('label selectors: =, ==, !=, in, notin, exists, !key', async () => {
    await create('a', { app: 'web', tier: 'front' });
    await create('b', { app: 'db' });
    await create('c', { tier: 'back' });
    const sel = async (s: string) => namesOf(await c.req('GET', `${CM}?labelSelector=${encodeURIComponent(s)}`));
    expect(await sel('app=web')).toEqual(['a']);
    expect(await sel('app==db')).toEqual(['b']);
    expect(await sel('app!=web')).toEqual(['b', 'c']);
    expect(await sel('app in (web,db)')).toEqual(['a', 'b']);
    expect(await sel('app notin (web)')).toEqual(['b', 'c']);
    expect(await sel('tier')).toEqual(['a', 'c']);
    expect(await sel('!tier')).toEqual(['b']);
    expect(await sel('app,tier=front')).toEqual(['a']);
    expect(await sel('app in (web),app notin (db)')).toEqual(['a']);
  });

  it('label selector syntax errors are 400 with the parser messages; gt/lt compare integers', async () => {
    await create('n1', { n: '5' });
    await create('n2', { n: '12' });
    await create('n3', { n: 'x' });
    const sel = async (s: string) => c.req('GET', `${CM}?labelSelector=${encodeURIComponent(s)}`);
    expect(namesOf(await sel('n>6'))).toEqual(['n2']);
    expect(namesOf(await sel('n<6'))).toEqual(['n1']);
    const cases: [string, string][] = [
      ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
      ['a in b', "unable to parse requirement: found 'b' expected: '('"],
      ['a=b,', "found '', expected: identifier after ','"],
      ['!a=b', "found '=', expected: ',' or 'end of string'"],
      ['n>x', `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`],
      [
        'a=-x',
        `unable to parse requirement: values[0][a]: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    ];
    for (const [s, message] of cases) {
      const r = await sel(s);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
    }
  });

  it('field selectors: metadata.name, metadata.namespace and per-kind fields', async () => {
    await create('a');
    await create('b');
    await c.req('POST', '/api/v1/namespaces/kube-system/configmaps', cm('a'));
    const sel = async (path: string, s: string) => (await c.req('GET', `${path}?fieldSelector=${encodeURIComponent(s)}`)).body.items.map((i: any) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`);
    expect(await sel(CM, 'metadata.name=a')).toEqual(['default/a']);
    expect(await sel('/api/v1/configmaps', 'metadata.name==a')).toEqual(['default/a', 'kube-system/a']);
    expect(await sel('/api/v1/configmaps', 'metadata.namespace!=default')).toEqual(['kube-system/a']);
    await c.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's1' }, type: 'Opaque' });
    await c.req('POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's2' }, type: 'kubernetes.io/basic-auth', stringData: { username: 'u', password: 'p' } });
    expect(await sel('/api/v1/namespaces/default/secrets', 'type=kubernetes.io/basic-auth')).toEqual(['default/s2']);
    const pod = (name: string, node?: string) => ({ metadata: { name }, spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'c', image: 'nginx' }] } });
    expect((await c.req('POST', '/api/v1/namespaces/default/pods', pod('p1', 'node-1'))).status).toBe(201);
    expect((await c.req('POST', '/api/v1/namespaces/default/pods', pod('p2'))).status).toBe(201);
    expect(await sel('/api/v1/pods', 'spec.nodeName=node-1')).toEqual(['default/p1']);
    expect(await sel('/api/v1/pods', 'spec.nodeName=')).toEqual(['default/p2']);
    expect(await sel('/api/v1/pods', 'status.phase=Pending')).toEqual(['default/p1', 'default/p2']);
    expect(await sel('/api/v1/namespaces', 'metadata.name=kube-public')).toEqual(['/kube-public']);
    const svc = (name: string, type?: string) => ({ metadata: { name }, spec: { ...(type ? { type } : {}), ports: [{ port: 80 }] } });
    expect((await c.req('POST', '/api/v1/namespaces/default/services', svc('s-a'))).status).toBe(201);
    expect((await c.req('POST', '/api/v1/namespaces/default/services', svc('s-b', 'NodePort'))).status).toBe(201);
    expect(await sel('/api/v1/namespaces/default/services', 'spec.type=NodePort')).toEqual(['default/s-b']);
    expect(await sel('/api/v1/namespaces/default/services', 'spec.type=ClusterIP,spec.clusterIP!=')).toEqual(['default/s-a']);
  });

  it('unsupported field labels are 400 with the message of the kind', async () => {
    const err = async (path: string, s: string) => {
      const r = await c.req('GET', `${path}?fieldSelector=${encodeURIComponent(s)}`);
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe('BadRequest');
      return r.body.message;
    };
    expect(await err(CM, 'data.a=1')).toBe('"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"');
    expect(await err('/api/v1/pods', 'spec.foo=x')).toBe('field label not supported: spec.foo');
    expect(await err('/api/v1/namespaces', 'metadata.namespace=x')).toBe('field label not supported: metadata.namespace');
    expect(await err('/apis/batch/v1/jobs', 'spec.x=1')).toBe('field label "spec.x" not supported for batchv1.Job');
    expect(await err(CM, 'metadata.name')).toBe("invalid selector: 'metadata.name'; can't understand 'metadata.name'");
    const w = await c.req('GET', `${CM}?watch=true&fieldSelector=data.a%3D1`);
    expect(w.status).toBe(400);
  });
});

describe('watch', () => {
  it('rv unset: synthetic ADDED for the current state, then changes as they happen', async () => {
    await create('a');
    const w = await watch(`${CM}?watch=true`);
    expect(w.res.headers.get('Content-Type')).toBe('application/json');
    const [added] = await w.take(1);
    expect(added.type).toBe('ADDED');
    expect(added.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', resourceVersion: '5' } });
    await update('a', { a: '2' });
    await create('b');
    await c.req('DELETE', `${CM}/a`);
    const evs = await w.take(3);
    expect(evs.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion])).toEqual([
      ['MODIFIED', 'a', '6'],
      ['ADDED', 'b', '7'],
      ['DELETED', 'a', '8'],
    ]);
    expect(evs[2].object.data).toEqual({ a: '2' });
    w.close();
  });

  it('from a resourceVersion: only later changes, no synthetic events; no gap after a list', async () => {
    await create('a');
    const list = await c.req('GET', CM);
    await create('b'); // between the list and the watch
    const w = await watch(`${CM}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    await update('a', { a: '3' });
    const evs = await w.take(2);
    expect(evs.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'b'],
      ['MODIFIED', 'a'],
    ]);
    w.close();
  });

  it('a future resourceVersion waits for it', async () => {
    await create('a');
    const w = await watch(`${CM}?watch=true&resourceVersion=6`);
    await create('b'); // rv 6: not after 6
    await create('c'); // rv 7
    const [e] = await w.take(1);
    expect([e.type, e.object.metadata.name]).toEqual(['ADDED', 'c']);
    w.close();
  });

  it('selector transitions: stops matching = DELETED (previous content, new rv), starts matching = ADDED', async () => {
    await create('a', { app: 'x' });
    const w = await watch(`${CM}?watch=true&resourceVersion=5&labelSelector=app%3Dx`);
    await update('a', { a: '2' }, { app: 'y' });
    await update('a', { a: '3' }, { app: 'x' });
    await update('a', { a: '4' }, { app: 'x' });
    const evs = await w.take(3);
    expect(evs.map((e) => [e.type, e.object.metadata.labels.app, e.object.data.a, e.object.metadata.resourceVersion])).toEqual([
      ['DELETED', 'x', '1', '6'],
      ['ADDED', 'x', '3', '7'],
      ['MODIFIED', 'x', '4', '8'],
    ]);
    w.close();
  });

  it('watches one object through its path or metadata.name', async () => {
    await create('a');
    await create('b');
    const w1 = await watch(`${CM}/a?watch=true`);
    const w2 = await watch(`${CM}?watch=true&fieldSelector=metadata.name%3Db`);
    expect((await w1.take(1))[0].object.metadata.name).toBe('a');
    expect((await w2.take(1))[0].object.metadata.name).toBe('b');
    await update('b', { a: '9' });
    await update('a', { a: '9' });
    expect((await w1.take(1))[0]).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'a' } } });
    expect((await w2.take(1))[0]).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'b' } } });
    const mismatch = await c.req('GET', `${CM}/a?watch=true&fieldSelector=metadata.name%3Db`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe("fieldSelector metadata.name doesn't match requested name");
    w1.close();
    w2.close();
  });

  it('bookmarks at the configured interval carry only the resourceVersion (typed zero value)', async () => {
    (c.server.engine as { bookmarkIntervalMs: number }).bookmarkIntervalMs = 1000;
    await create('a');
    const w = await watch(`${CM}?watch=true&resourceVersion=5&allowWatchBookmarks=true`);
    await create('b');
    await w.take(1);
    await c.env.advance(1000);
    const [bm] = await w.take(1);
    expect(bm).toEqual({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '6', creationTimestamp: null } } });
    const wp = await watch(`/api/v1/pods?watch=true&resourceVersion=6&allowWatchBookmarks=true`);
    await c.env.advance(1000);
    expect((await wp.take(1))[0].object).toEqual({ kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '6', creationTimestamp: null }, spec: { containers: null }, status: {} });
    // no bookmarks unless asked for
    const plain = await watch(`${CM}?watch=true&resourceVersion=6`);
    await c.env.advance(3000);
    await create('c');
    expect((await plain.take(1))[0].type).toBe('ADDED');
    w.close();
    wp.close();
    plain.close();
  });

  it('a bookmark is also sent about 2 s before the watch times out', async () => {
    await create('a');
    const w = await watch(`${CM}?watch=true&resourceVersion=4&allowWatchBookmarks=true&timeoutSeconds=10`);
    expect((await w.take(1))[0].type).toBe('ADDED');
    await c.env.advance(7999);
    await create('b');
    expect((await w.take(1))[0].type).toBe('ADDED');
    await c.env.advance(1);
    expect((await w.take(1))[0]).toEqual({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '6', creationTimestamp: null } } });
    await c.env.advance(2000);
    expect(await w.ended()).toBe(true);
  });

  it('sendInitialEvents: ADDED for the state, then the initial-events-end bookmark', async () => {
    await create('a');
    await create('b');
    const w = await watch(`${CM}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const evs = await w.take(3);
    expect(evs.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
    expect(evs[2].object).toEqual({
      kind: 'ConfigMap', apiVersion: 'v1',
      metadata: { resourceVersion: '6', creationTimestamp: null, annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    await create('c');
    expect((await w.take(1))[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'c' } } });
    w.close();
    // sendInitialEvents=false with rv 0: no initial state
    const w2 = await watch(`${CM}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=0`);
    await create('d');
    expect((await w2.take(1))[0].object.metadata.name).toBe('d');
    w2.close();
  });

  it('watch option validation is 422 with the real messages', async () => {
    let r = await c.req('GET', `${CM}?watch=true&sendInitialEvents=true`);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    r = await c.req('GET', `${CM}?watch=true&resourceVersion=3&resourceVersionMatch=NotOlderThan`);
    expect(r.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
    r = await c.req('GET', `${CM}?watch=true&resourceVersion=3&resourceVersionMatch=Exact&sendInitialEvents=true`);
    expect(r.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    );
  });

  it('timeoutSeconds ends the stream cleanly', async () => {
    const w = await watch(`${CM}?watch=true&resourceVersion=4&timeoutSeconds=5`);
    await c.env.advance(4999);
    await create('a');
    expect((await w.take(1))[0].type).toBe('ADDED');
    await c.env.advance(1);
    expect(await w.ended()).toBe(true);
    expect(c.server.engine.watch.count).toBe(0);
  });

  it('a version older than retained history gets one ERROR event with the 410 Status, then the stream ends', async () => {
    c = await testClient(createMemoryStorage(), { historyWindowMs: 1000, defaultObjects: false });
    await create('a');
    await update('a', { a: '2' });
    await c.env.advance(5000);
    const w = await watch(`${CM}?watch=true&resourceVersion=2`);
    const [e] = await w.take(1);
    expect(e).toEqual({
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 2 (6)', reason: 'Expired', code: 410 },
    });
    expect(await w.ended()).toBe(true);
    // the latest version itself is still a valid start
    const ok = await watch(`${CM}?watch=true&resourceVersion=6`);
    await create('b');
    expect((await ok.take(1))[0].type).toBe('ADDED');
    ok.close();
  });

  it('many watchers get the same bytes; closing the client ends the watch', async () => {
    const ws = await Promise.all([0, 1, 2].map(() => watch(`${CM}?watch=true&resourceVersion=4`)));
    expect(c.server.engine.watch.count).toBe(3);
    await create('a');
    const got = await Promise.all(ws.map((w) => w.take(1)));
    expect(got[0]).toEqual(got[2]);
    for (const w of ws) w.close();
    await tick();
    expect(c.server.engine.watch.count).toBe(0);
  });
});

describe('representations', () => {
  it('pretty JSON and YAML lists', async () => {
    await create('a');
    const p = await c.req('GET', `${CM}?pretty=true`);
    expect(p.text).toMatch(/^\{\n  "kind": "ConfigMapList",\n  "apiVersion": "v1",\n  "metadata": \{\n    "resourceVersion": "5"\n  \},\n  "items": \[\n    \{\n      "metadata": \{\n        "name": "a",/);
    const y = await c.raw('GET', CM, undefined, { Accept: 'application/yaml' });
    expect(y.headers.get('Content-Type')).toBe('application/yaml');
    expect(await y.text()).toMatch(/^apiVersion: v1\nitems:\n- data:\n    a: "1"\n  metadata:\n    creationTimestamp: "2025-01-01T00:00:00Z"\n/);
  });

  it('a pretty list is byte for byte the indented form of the compact one (short and streamed lists, tricky values)', async () => {
    const tricky = { quote: 'a "b" \\ c', brackets: '{[,:]} "}"', unicode: 'ü ✓ 😀 \u2028', html: '<a href="x">&amp;</a>', nl: 'x\ny\tz', empty: '' };
    const r0 = await c.req('POST', CM, { ...cm('t0', { 'a.b/c': 'd' }, tricky), metadata: { name: 't0', annotations: { e: '', 'x.io/y': '[]{} "q" {}' }, labels: { 'a.b/c': 'd' } } });
    expect(r0.status).toBe(201);
    const first = await c.req('GET', `${CM}?pretty=true`);
    // the indented form as Go writes it: HTML characters and U+2028 escaped as in the compact form
    expect(first.text).toBe(`${goJsonText(JSON.stringify(JSON.parse((await c.req('GET', CM)).text), null, 2))}\n`);
    for (let i = 1; i < 300; i++) expect((await c.req('POST', CM, cm(`t${i}`, {}, i % 2 ? {} : tricky))).status).toBe(201);
    for (const q of ['', 'limit=7', 'limit=290', 'labelSelector=none%3Dx']) {
      const compact = await c.req('GET', `${CM}?${q}`);
      const pretty = await c.req('GET', `${CM}?${q}${q ? '&' : ''}pretty=true`);
      expect(pretty.status).toBe(200);
      expect(pretty.headers.get('Content-Type')).toBe('application/json');
      expect(pretty.text).toBe(`${goJsonText(JSON.stringify(JSON.parse(compact.text), null, 2))}\n`);
    }
    // a browser User-Agent gets the pretty form too, as from the real server
    const ua = await c.raw('GET', CM, undefined, { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' });
    expect(await ua.text()).toBe(`${goJsonText(JSON.stringify(JSON.parse((await c.req('GET', CM)).text), null, 2))}\n`);
  });

  it('a pretty list streamed in several pieces is byte for byte the indented compact list, its items made from kept compact bytes or not, then kept', async () => {
    const big = 'x'.repeat(2000);
    for (let i = 0; i < 400; i++) {
      expect((await c.req('POST', CM, cm(`p${String(i).padStart(3, '0')}`, {}, i % 7 ? { big, i: String(i) } : { big, q: 'a "}],{[" \\' }))).status).toBe(201);
    }
    const read = (pretty: boolean) => readChunks(c, `${CM}${pretty ? '?pretty=true' : ''}`);
    // a third of the items read by name first (their compact bytes are kept: the pretty form is indented from
    // them), the others serialized pretty at once; then both again from the kept bytes
    for (let i = 0; i < 400; i += 3) expect((await c.req('GET', `${CM}/p${String(i).padStart(3, '0')}`)).status).toBe(200);
    const pretty = [await read(true)];
    const compact = await read(false);
    pretty.push(await read(true));
    for (const p of pretty) {
      expect(p.chunks).toBeGreaterThan(2);
      expect(p.text).toBe(`${JSON.stringify(JSON.parse(compact.text), null, 2)}\n`);
    }
  });

  it('a first pretty list writes runs of never-serialized items in batches: the same bytes as the indented compact list, across pieces, beside kept items', async () => {
    const big = 'y'.repeat(2000);
    // values that could fool a batch's cutting or encoding: non-ASCII text, Go's HTML escapes, and escaped
    // newlines followed by what an item's closing line looks like
    const odd = (i: number): Record<string, string> => (i % 5 === 0 ? { u: 'é ✓ 😀 \u2028' } : i % 7 === 0 ? { h: '<a&b>', s: '\n    }\n    },\n    {' } : {});
    for (let i = 0; i < 600; i++) {
      expect((await c.req('POST', CM, cm(`b${String(i).padStart(3, '0')}`, i % 3 ? {} : { 'x.io/k': 'v' }, { big, i: String(i), ...odd(i) }))).status).toBe(201);
    }
    const read = (q: string) => readChunks(c, `${CM}${q}`);
    const expected = async () => `${goJsonText(JSON.stringify(JSON.parse((await read('')).text), null, 2))}\n`;
    // every item serialized for the first time (runs of up to a batch, cut at the pieces' ends)
    const first = await read('?pretty=true');
    expect(first.chunks).toBeGreaterThan(3);
    expect(first.text).toBe(await expected());
    // every fourth object replaced: short runs of new objects between items whose pretty bytes are kept
    for (let i = 0; i < 600; i += 4) {
      expect((await c.req('PUT', `${CM}/b${String(i).padStart(3, '0')}`, cm(`b${String(i).padStart(3, '0')}`, {}, { big, i: `${i}'`, ...odd(i + 1) }))).status).toBe(200);
    }
    const mixed = await read('?pretty=true');
    expect(mixed.chunks).toBeGreaterThan(3);
    expect(mixed.text).toBe(await expected());
    // and the kept bytes again
    expect((await read('?pretty=true')).text).toBe(mixed.text);
  });

  it('a later pretty list sends long runs of kept items as views of the buffers that hold them, and stays byte for byte the indented compact list', async () => {
    const big = 'w'.repeat(2000);
    for (let i = 0; i < 400; i++) expect((await c.req('POST', CM, cm(`v${String(i).padStart(3, '0')}`, {}, { big, i: String(i) }))).status).toBe(201);
    const pieces = async (q: string): Promise<{ chunks: Uint8Array[]; text: string }> => {
      const res = await c.server.serve(engineRequest('GET', `http://127.0.0.1${CM}${q}`, []));
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const chunks: Uint8Array[] = [];
      const decoder = new TextDecoder();
      let text = '';
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        chunks.push(r.value!);
        text += decoder.decode(r.value!, { stream: true });
      }
      return { chunks, text };
    };
    const expected = async () => `${goJsonText(JSON.stringify(JSON.parse((await readChunks(c, CM)).text), null, 2))}\n`;
    const first = await pieces('?pretty=true');
    const firstBuffers = new Set(first.chunks.map((b) => b.buffer));
    // every item kept in list order: the later list's body is the first list's buffers, not a copy of them
    const later = await pieces('?pretty=true');
    expect(later.text).toBe(first.text);
    const shared = later.chunks.filter((b) => firstBuffers.has(b.buffer));
    expect(shared.length).toBeGreaterThan(5);
    expect(shared.reduce((n, b) => n + b.byteLength, 0)).toBeGreaterThan(later.text.length * 0.9);
    // objects replaced (new bytes in buffers of their own), one added before all (the first kept run is then
    // not the list's first item: its separator changes), one deleted: the same bytes as the indented compact list
    for (let i = 5; i < 400; i += 37) {
      expect((await c.req('PUT', `${CM}/v${String(i).padStart(3, '0')}`, cm(`v${String(i).padStart(3, '0')}`, {}, { big, i: `${i}'` }))).status).toBe(200);
    }
    expect((await c.req('POST', CM, cm('a-first', {}, { big }))).status).toBe(201);
    expect((await c.req('DELETE', `${CM}/v100`)).status).toBe(200);
    const mixed = await pieces('?pretty=true');
    expect(mixed.text).toBe(await expected());
    expect(mixed.chunks.filter((b) => firstBuffers.has(b.buffer)).length).toBeGreaterThan(5);
    // a page of the list (limit and continue) from the same kept bytes
    const page = await c.req('GET', `${CM}?limit=300&pretty=true`);
    const compactPage = await c.req('GET', `${CM}?limit=300`);
    expect(page.text).toBe(`${goJsonText(JSON.stringify(JSON.parse(compactPage.text), null, 2))}\n`);
  });

  it('a first pretty list sends its batches as kept: a reader that detaches the pieces it read leaves the next list whole', async () => {
    const big = 'z'.repeat(2000);
    for (let i = 0; i < 300; i++) expect((await c.req('POST', CM, cm(`d${String(i).padStart(3, '0')}`, {}, { big, i: String(i) }))).status).toBe(201);
    // the first list read piece by piece from the engine's own stream, each piece's buffer then transferred
    // away (detached here) as a reader of the body may do
    const res = await c.server.serve(engineRequest('GET', `http://127.0.0.1${CM}?pretty=true`, []));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    let detached = 0;
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      text += decoder.decode(r.value!, { stream: true });
      structuredClone(r.value!.buffer, { transfer: [r.value!.buffer] });
      if (r.value!.byteLength === 0) detached++;
    }
    expect(detached).toBeGreaterThan(2);
    // (the compact list keeps compact bytes: the pretty items are then made from them, or from kept pretty bytes)
    const expected = `${goJsonText(JSON.stringify(JSON.parse((await readChunks(c, CM)).text), null, 2))}\n`;
    expect(text).toBe(expected);
    // the items whose kept bytes were in those buffers are serialized again, in the kept ones' place
    expect((await readChunks(c, `${CM}?pretty=true`)).text).toBe(expected);
    expect((await readChunks(c, `${CM}?pretty=true`)).text).toBe(expected);
  });

  it('Table for list, get and watch: v1, v1beta1, svc spelling, includeObject', async () => {
    await create('a', { app: 'x' });
    await create('b');
    const T = 'application/json;as=Table;g=meta.k8s.io;v=v1';
    const t = await c.req('GET', `${CM}?limit=1`, undefined, { Accept: `${T}, application/json` });
    expect(t.headers.get('Content-Type')).toBe(T);
    expect(t.body.kind).toBe('Table');
    expect(t.body.columnDefinitions.map((x: any) => x.name)).toEqual(['Name', 'Data', 'Age']);
    expect(t.body.rows).toEqual([
      { cells: ['a', 1, '0s'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'a', labels: { app: 'x' } }) } },
    ]);
    expect(t.body.metadata).toEqual({ resourceVersion: '6', continue: expect.any(String), remainingItemCount: 1 });
    const none = await c.req('GET', `${CM}?includeObject=None`, undefined, { Accept: T });
    expect(none.body.rows[0]).toEqual({ cells: ['a', 1, '0s'] });
    const obj = await c.req('GET', `${CM}/a?includeObject=Object`, undefined, { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1beta1' });
    expect(obj.body.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(obj.body.rows[0].object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: '1' } });
    const svc = await c.req('GET', CM, undefined, { Accept: 'application/json;as=Table;g=meta.svc.io;v=v1' });
    expect(svc.body.apiVersion).toBe('meta.svc.io/v1');
    const bad = await c.req('GET', `${CM}?includeObject=All`, undefined, { Accept: T });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(`Unable to convert to Table as requested: includeObject: Invalid value: "All": must be 'Metadata', 'Object', 'None', or empty`);
    const def = await c.req('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles', undefined, { Accept: T });
    expect(def.body.columnDefinitions.map((x: any) => [x.name, x.type])).toEqual([['Name', 'string'], ['Created At', 'date']]);
    const w = await watch(`${CM}?watch=true&resourceVersion=6`, { Accept: T });
    expect(w.res.headers.get('Content-Type')).toBe('application/json');
    await update('a', { a: '1', b: '2' });
    await update('b', { a: '3' });
    const [e1, e2] = await w.take(2);
    expect(e1).toMatchObject({ type: 'MODIFIED', object: { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '7' }, rows: [{ cells: ['a', 2, '0s'] }] } });
    expect(e1.object.columnDefinitions.map((x: any) => x.name)).toEqual(['Name', 'Data', 'Age']);
    expect(e2.object.columnDefinitions).toBeNull();
    w.close();
  });

  it('406 when nothing is acceptable (CBOR with the gate off, a protobuf Table); Accept lists fall back in order', async () => {
    const tableAs = ';as=Table;g=meta.k8s.io;v=v1';
    for (const accept of ['application/cbor', 'text/html', 'application/json;as=Table;g=meta.k8s.io;v=v2', `application/vnd.kubernetes.protobuf${tableAs}`, 'application/json;v=v1']) {
      const r = await c.req('GET', CM, undefined, { Accept: accept });
      expect(r.status).toBe(406);
      expect(r.body).toEqual({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf', reason: 'NotAcceptable', code: 406,
      });
      // no acceptable serializer for the error either: WriteRawJSON, indented
      expect(r.text.startsWith('{\n  "kind": "Status"')).toBe(true);
    }
    const r = await c.raw('GET', CM, undefined, { Accept: 'application/vnd.kubernetes.protobuf;q=1, application/yaml;q=0.5, application/json;q=0.9' });
    expect(r.headers.get('Content-Type')).toBe('application/vnd.kubernetes.protobuf');
    const t = await c.req('GET', CM, undefined, { Accept: `application/vnd.kubernetes.protobuf${tableAs}, application/json${tableAs}` });
    expect(t.headers.get('Content-Type')).toBe(`application/json${tableAs}`);
    // a watch needs a stream serializer: the first acceptable clause chosen for YAML is a 406 with the stream forms
    for (const accept of ['application/yaml', 'application/yaml, application/json']) {
      const yw = await c.req('GET', `${CM}?watch=true`, undefined, { Accept: accept });
      expect(yw.status).toBe(406);
      // the error itself is written in the acceptable YAML (ErrorNegotiated)
      expect(yw.headers.get('Content-Type')).toBe('application/yaml');
      expect(yw.text).toContain('message: "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch"');
    }
    const w = await watch(`${CM}?watch=true&resourceVersion=4`, { Accept: 'application/yaml;q=0.5, application/json' });
    expect(w.res.headers.get('Content-Type')).toBe('application/json');
    w.close();
  });

  it('PartialObjectMetadata for get and watch, PartialObjectMetadataList for list; the wrong one is 406', async () => {
    await create('a', { app: 'x' });
    const P = (kind: string, v = 'v1') => ({ Accept: `application/json;as=${kind};g=meta.k8s.io;v=${v}` });
    const g = await c.req('GET', `${CM}/a`, undefined, P('PartialObjectMetadata'));
    expect(g.headers.get('Content-Type')).toBe('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
    expect(g.body).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'a', labels: { app: 'x' } }) });
    const l = await c.req('GET', CM, undefined, P('PartialObjectMetadataList', 'v1beta1'));
    expect(l.body).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1beta1', metadata: { resourceVersion: '5' }, items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: { name: 'a' } }] });
    expect(l.body.items[0].data).toBeUndefined();
    const bad = await c.req('GET', CM, undefined, P('PartialObjectMetadata'));
    expect(bad.status).toBe(406);
    expect(bad.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)', reason: 'NotAcceptable', code: 406,
    });
    const bad2 = await c.req('GET', '/apis/apps/v1/namespaces/default/deployments/x', undefined, P('PartialObjectMetadataList'));
    expect(bad2.status).toBe(404);
    const bad3 = await c.req('GET', `${CM}/a`, undefined, P('PartialObjectMetadataList'));
    expect(bad3.status).toBe(406);
    expect(bad3.body.message).toBe('you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)');
    const w = await watch(`${CM}?watch=true&resourceVersion=5`, P('PartialObjectMetadata'));
    await update('a', { a: '2' });
    expect((await w.take(1))[0]).toEqual({ type: 'MODIFIED', object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'a', resourceVersion: '6' }) } });
    w.close();
  });

  it('CBOR behind CBORServingAndStorage: get, list and a watch answered as a CBOR sequence', async () => {
    c = await testClient(createMemoryStorage(), { featureGates: { CBORServingAndStorage: true }, defaultObjects: false });
    await create('a');
    const g = await c.raw('GET', `${CM}/a`, undefined, { Accept: 'application/cbor' });
    expect(g.headers.get('Content-Type')).toBe('application/cbor');
    const bytes = new Uint8Array(await g.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xd9, 0xd9, 0xf7]);
    // a map whose keys are byte strings sorted by their encoding: shorter keys first
    expect([...bytes.slice(3, 5)]).toEqual([0xa4, 0x44]); // map(4), bytes(4) "data"
    expect(new TextDecoder().decode(bytes.slice(5, 9))).toBe('data');
    expect(cborDecode(bytes.slice(3))).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' }, data: { a: '1' } });
    const l = await c.raw('GET', CM, undefined, { Accept: 'application/cbor' });
    expect(cborDecode(new Uint8Array(await l.arrayBuffer()).slice(3))).toMatchObject({ kind: 'ConfigMapList', items: [{ metadata: { name: 'a' } }] });
    const ac = new AbortController();
    // clients ask for application/cbor (the only CBOR serializer); application/cbor-seq names none
    const seq = await c.req('GET', `${CM}?watch=true&resourceVersion=5`, undefined, { Accept: 'application/cbor-seq' });
    expect(seq.status).toBe(406);
    expect(seq.body.message).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor');
    const w = await c.server.handle(new Request(`http://x${CM}?watch=true&resourceVersion=5`, { headers: { Accept: 'application/cbor' }, signal: ac.signal }));
    expect(w.headers.get('Content-Type')).toBe('application/cbor-seq');
    const reader = w.body!.getReader();
    await create('b');
    const { value } = await reader.read();
    expect(cborDecode(value!.slice(3))).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'b' } } });
    ac.abort();
  });
});

describe('CBOR encoding mode', () => {
  it('shortest integers and floats, byte strings, tag 55799', async () => {
    const { encodeCbor } = await import('./negotiation/encode.js');
    const hex = (v: unknown) => Buffer.from(encodeCbor(v)).toString('hex');
    expect(hex(0)).toBe('d9d9f700');
    expect(hex(-1)).toBe('d9d9f720');
    expect(hex(500)).toBe('d9d9f71901f4');
    expect(hex(1.5)).toBe('d9d9f7f93e00');
    expect(hex(100000.5)).toBe('d9d9f7fa47c35040');
    expect(hex(0.1)).toBe('d9d9f7fb3fb999999999999a');
    expect(hex('a')).toBe('d9d9f74161');
    expect(hex({ bb: null, a: [true, false] })).toBe('d9d9f7a2416182f5f4426262f6');
  });
});

describe('custom resources', () => {
  it('lists carry apiVersion/kind on items, field selectors allow metadata.name/namespace only, bookmarks are bare', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } },
          { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
        ],
      },
    };
    expect((await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    const W = '/apis/example.com/v1/namespaces/default/widgets';
    for (const n of ['w1', 'w2']) expect((await c.req('POST', W, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: n }, spec: { size: 1 } })).status).toBe(201);
    const l = await c.req('GET', `${W}?limit=1`);
    expect(l.body).toMatchObject({ kind: 'WidgetList', apiVersion: 'example.com/v1', metadata: { remainingItemCount: 1 }, items: [{ kind: 'Widget', apiVersion: 'example.com/v1', metadata: { name: 'w1' } }] });
    const beta = await c.req('GET', '/apis/example.com/v1beta1/namespaces/default/widgets');
    expect(beta.body.items.map((i: any) => i.apiVersion)).toEqual(['example.com/v1beta1', 'example.com/v1beta1']);
    expect(namesOf(await c.req('GET', `${W}?fieldSelector=metadata.name%3Dw2`))).toEqual(['w2']);
    const bad = await c.req('GET', `${W}?fieldSelector=spec.size%3D1`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('field label not supported: spec.size');
    (c.server.engine as { bookmarkIntervalMs: number }).bookmarkIntervalMs = 1000;
    const rv = l.body.metadata.resourceVersion;
    const w = await watch(`${W}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`);
    await c.env.advance(1000);
    expect((await w.take(1))[0]).toEqual({ type: 'BOOKMARK', object: { kind: 'Widget', apiVersion: 'example.com/v1', metadata: { resourceVersion: rv } } });
    w.close();
  });
});

describe('get body', () => {
  // get writes its compact JSON from the per-object serialization that list items use: the body must be
  // the presented object's JSON whichever of get and list filled that cache first
  it('is the object as compact JSON, kind and apiVersion first, the same before and after a list, and indented for pretty', async () => {
    await create('g1', { app: 'x' });
    const first = await c.req('GET', `${CM}/g1`);
    expect(first.status).toBe(200);
    expect(first.headers.get('Content-Type')).toBe('application/json');
    expect(first.headers.get('Cache-Control')).toBe('no-cache, private');
    expect(first.text).toBe(JSON.stringify(first.body) + '\n');
    expect(first.text.startsWith('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"g1","namespace":"default","uid":')).toBe(true);
    expect(Object.keys(first.body)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
    await create('g2');
    await c.req('GET', CM);
    const again = await c.req('GET', `${CM}/g2`);
    expect(again.text).toBe(JSON.stringify(again.body) + '\n');
    expect(again.text.startsWith('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"g2"')).toBe(true);
    expect((await c.req('GET', `${CM}/g1`)).text).toBe(first.text);
    const pretty = await c.req('GET', `${CM}/g1?pretty=true`);
    expect(pretty.text).toBe(JSON.stringify(first.body, null, 2) + '\n');
  });

  it('of an object read for the first time is text; read again, the bytes kept for it: the same bytes, a new object\'s after a write, made again when a reader detached them', async () => {
    await create('k1', { app: 'x' });
    await create('k0');
    const body = async (name = 'k1'): Promise<string | Uint8Array> => {
      const res = await c.server.serve(engineRequest('GET', `http://127.0.0.1${CM}/${name}`, []));
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('application/json');
      return res.body as string | Uint8Array;
    };
    const text = (b: string | Uint8Array) => (typeof b === 'string' ? b : new TextDecoder().decode(b));
    // the first read (k1 is not the last object written: no write answer is handed over) answers text, which
    // the hosts encode as they send it; from the second read on, one body kept with the stored object and
    // answered as it is
    const first = await body();
    expect(typeof first).toBe('string');
    expect(text(first)).toBe(JSON.stringify(JSON.parse(text(first))) + '\n');
    const second = await body();
    const third = await body();
    expect(second).toBeInstanceOf(Uint8Array);
    expect(text(second)).toBe(text(first));
    expect(third).toBe(second);
    expect(JSON.parse(text(third)).metadata.name).toBe('k1');
    // a write stores a new object: its body, not the old one's
    expect((await c.req('PUT', `${CM}/k1`, { ...JSON.parse(text(third)), data: { a: '2' } })).status).toBe(200);
    const written = [await body(), await body(), await body()];
    for (const b of written) expect(JSON.parse(text(b)).data).toEqual({ a: '2' });
    const expected = text(written[0]);
    expect(text(written[2])).toBe(expected);
    expect(written[2]).toBe(written[1]);
    // a reader that transfers the body's buffer away leaves the kept body empty: the next get makes it again
    const kept = written[2] as Uint8Array;
    structuredClone(kept.buffer, { transfer: [kept.buffer] });
    expect(kept.byteLength).toBe(0);
    expect(text(await body())).toBe(expected);
    expect(text(await body())).toBe(expected);
    expect((await c.req('GET', `${CM}/k1`)).body.data).toEqual({ a: '2' });
    // an object read once, then listed: the list's item is the object as the get answered it, and the
    // reads after the list answer it still
    const once = text(await body('k0'));
    const listed = (await c.req('GET', CM)).body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'k0');
    expect(JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', ...listed }) + '\n').toBe(once);
    expect(text(await body('k0'))).toBe(once);
    expect(text(await body('k0'))).toBe(once);
  });

  it('of a custom resource in the stored and another served version', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } },
          { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
        ],
      },
    };
    expect((await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    const G = '/apis/example.com/v1/namespaces/default/gadgets';
    expect((await c.req('POST', G, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } })).status).toBe(201);
    // each version in turn, again and again: a body kept for one version is never the other's
    for (const path of [`${G}/g`, '/apis/example.com/v1beta1/namespaces/default/gadgets/g', `${G}/g`, `${G}/g`, '/apis/example.com/v1beta1/namespaces/default/gadgets/g', '/apis/example.com/v1beta1/namespaces/default/gadgets/g', `${G}/g`]) {
      const version = path.includes('v1beta1') ? 'example.com/v1beta1' : 'example.com/v1';
      const r = await c.req('GET', path);
      expect(r.status).toBe(200);
      expect(r.text).toBe(JSON.stringify(r.body) + '\n');
      expect(r.text.startsWith(`{"kind":"Gadget","apiVersion":"${version}","metadata":{"name":"g"`)).toBe(true);
      expect(r.body.spec).toEqual({ size: 1 });
    }
  });
});
