// Request budgets and validate-first, over HTTP against the Node host: the 3 MiB body limit (413), YAML
// alias expansion, nesting depth on every decoding path, deletecollection options, unknown methods,
// custom-resource metadata types and timeoutSeconds. Every refusal is checked for its exact Status, for a
// server that still answers, and for a store left unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { createApiServer } from '../../engine/server.js';
import { startHttpHost, type HttpHost } from './http-host.js';
import { until } from '../../engine/testing/wait.js';

let host: HttpHost;
let base: string;

beforeAll(async () => {
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'node' });
  await api.ready;
  host = await startHttpHost(api);
  base = host.url;
  expect((await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(CRD))).status).toBe(201);
  await until('the widgets to be served', async () => (await call('GET', '/apis/ex.com/v1/namespaces/default/widgets')).status === 200, { ms: 5000, every: 25 });
  for (const ns of ['budget', 'dc']) {
    expect((await call('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }))).status).toBe(201);
  }
});
afterAll(async () => {
  await host?.close();
});

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.ex.com' },
  spec: {
    group: 'ex.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
    }],
  },
};

interface Reply {
  status: number;
  text: string;
  json: any;
  ms: number;
}

async function call(method: string, path: string, body?: string | Uint8Array | ReadableStream<Uint8Array>, contentType = 'application/json'): Promise<Reply> {
  const t = performance.now();
  const init: RequestInit & { duplex?: string } = { method, headers: body !== undefined ? { 'Content-Type': contentType } : {} };
  if (body !== undefined) {
    init.body = body as BodyInit;
    if (body instanceof ReadableStream) init.duplex = 'half';
  }
  const r = await fetch(base + path, init);
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, text, json, ms: performance.now() - t };
}

function failure(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}

/** name -> resourceVersion of a collection: equal before and after a refused request means nothing changed. */
async function contents(path: string): Promise<Record<string, string>> {
  const r = await call('GET', path);
  expect(r.status).toBe(200);
  return Object.fromEntries(r.json.items.map((o: any) => [o.metadata.name, o.metadata.resourceVersion]));
}

async function stillServing(): Promise<void> {
  const r = await call('GET', '/version');
  expect(r.status).toBe(200);
  expect(r.json.major).toBe('1');
}

const CMS = '/api/v1/namespaces/budget/configmaps';
const WIDGETS = '/apis/ex.com/v1/namespaces/budget/widgets';

describe('request bodies: the real server\'s 3 MiB limit', () => {
  const LIMIT = 3 * 1024 * 1024;
  const TOO_LARGE = failure(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
  const padded = (json: string, size: number) => json + ' '.repeat(size - json.length);

  it('a body of exactly 3 MiB is read; one byte more is 413 and nothing is stored', async () => {
    const before = await contents(CMS);
    const ok = await call('POST', CMS, padded(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'at-limit' } }), LIMIT));
    expect(ok.status).toBe(201);
    const over = await call('POST', CMS, padded(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'over-limit' } }), LIMIT + 1));
    expect(over.status).toBe(413);
    expect(over.json).toEqual(TOO_LARGE);
    const after = await contents(CMS);
    expect(Object.keys(after).sort()).toEqual([...Object.keys(before), 'at-limit'].sort());
    await stillServing();
  });

  it('every body-reading path refuses past the limit: update, each patch type, delete options, the CEL endpoint', async () => {
    const before = await contents(CMS);
    const big = 'x'.repeat(LIMIT);
    const cases: [string, string, string, string][] = [
      ['PUT', `${CMS}/at-limit`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'at-limit' }, data: { a: big } }), 'application/json'],
      ['PATCH', `${CMS}/at-limit`, JSON.stringify({ data: { a: big } }), 'application/merge-patch+json'],
      ['PATCH', `${CMS}/at-limit`, JSON.stringify({ data: { a: big } }), 'application/strategic-merge-patch+json'],
      ['PATCH', `${CMS}/at-limit`, JSON.stringify([{ op: 'add', path: '/data', value: { a: big } }]), 'application/json-patch+json'],
      ['PATCH', `${CMS}/at-limit?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'at-limit' }, data: { a: big } }), 'application/apply-patch+yaml'],
      ['DELETE', `${CMS}/at-limit`, JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, x: big }), 'application/json'],
      ['POST', '/x-playground/cel', JSON.stringify({ expression: 'true', variables: { x: big } }), 'application/json'],
    ];
    for (const [method, path, body, ct] of cases) {
      const r = await call(method, path, body, ct);
      expect([method, path, ct, r.status]).toEqual([method, path, ct, 413]);
      expect(r.json).toEqual(TOO_LARGE);
    }
    expect(await contents(CMS)).toEqual(before);
    await stillServing();
  });

  it('a streamed body without Content-Length is refused the same way', async () => {
    const before = await contents(CMS);
    let sent = 0;
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"streamed"}}'));
      },
      pull(c) {
        if (sent > 2 * LIMIT) return c.close();
        sent += chunk.byteLength;
        c.enqueue(chunk);
      },
    });
    const r = await call('POST', CMS, stream);
    expect(r.status).toBe(413);
    expect(r.json).toEqual(TOO_LARGE);
    expect(await contents(CMS)).toEqual(before);
    await stillServing();
  });
});

/** summarizeData of a YAML body that starts `apiVersion: v1\nkind: ConfigMap`: its first 30 bytes in hex. */
const YAML_CM_SUMMARY = '61706956657273696f6e3a2076310a6b696e643a20436f6e6669674d6170 ...';

describe('YAML aliases expand within a budget', () => {
  it('a 1 MB alias bomb is 400 with go-yaml\'s message, as fast as an ordinary body of its size, storing nothing', async () => {
    const before = await contents(CMS);
    // an anchor of 2,000 scalars referenced ~330,000 times: hundreds of millions of nodes if expanded
    const anchor = `[${Array(2000).fill('x').join(',')}]`;
    const head = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\nanchor: &a ${anchor}\nbomb: [`;
    const refs: string[] = [];
    while (head('bomb').length + refs.length * 3 < 1_000_000) refs.push('*a');
    const body = head('bomb') + refs.join(',') + ']\n';
    expect(body.length).toBeGreaterThan(990_000);
    // the same size without aliases: what parsing 1 MB of YAML costs on this machine right now
    const plain = await call('POST', CMS, head('plain') + refs.map(() => 'xy').join(',') + ']\n', 'application/yaml');
    expect(plain.status).toBe(201);
    const r = await call('POST', CMS, body, 'application/yaml');
    expect(r.json).toEqual(failure(400, 'BadRequest', unrecognized('ConfigMap', 'yaml: document contains excessive aliasing', YAML_CM_SUMMARY)));
    // well under a second on a quiet machine (the unguarded expansion took 9-12 s and 3 GB); under load,
    // no slower than the ordinary body
    console.log(`alias bomb refused in ${Math.round(r.ms)} ms (ordinary 1 MB body: ${Math.round(plain.ms)} ms)`);
    expect(r.ms).toBeLessThan(Math.max(1000, 2 * plain.ms));
    const after = await contents(CMS);
    expect(after).toEqual({ ...before, plain: after.plain });
    await stillServing();
  });

  it('the classic billion laughs is refused the same way', async () => {
    let body = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: laughs}\na0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++) body += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
    const r = await call('POST', CMS, body, 'application/yaml');
    expect(r.json).toEqual(failure(400, 'BadRequest', unrecognized('ConfigMap', 'yaml: document contains excessive aliasing', YAML_CM_SUMMARY)));
    expect(r.ms).toBeLessThan(1000);
    expect((await call('GET', `${CMS}/laughs`)).status).toBe(404);
  });
});

// ---- nesting depth ------------------------------------------------------------------------------------

const nest = (d: number) => '{"a":'.repeat(d) + '1' + '}'.repeat(d);

/** A protobuf ControllerRevision whose `data` (a RawExtension) holds `raw` JSON. */
function protobufRevision(name: string, raw: string): Uint8Array {
  const varint = (v: number) => {
    const out: number[] = [];
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(v);
    return out;
  };
  const bytes = (num: number, b: number[] | Uint8Array) => [...varint(num * 8 + 2), ...varint(b.length), ...b];
  const str = (num: number, s: string) => bytes(num, new TextEncoder().encode(s));
  const revision = [...bytes(1, str(1, name)), ...bytes(2, bytes(1, new TextEncoder().encode(raw))), ...varint(3 * 8), ...varint(1)];
  const typeMeta = bytes(1, [...str(1, 'apps/v1'), ...str(2, 'ControllerRevision')]);
  return new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...typeMeta, ...bytes(2, revision), ...str(3, ''), ...str(4, '')]);
}

interface DepthPath {
  name: string;
  /** Collection whose contents must not change on refusal. */
  list: string;
  send(d: number, i: number): Promise<Reply>;
  /** Expected message when too deep. */
  refused: string;
  /** Status when accepted (depth 100). */
  ok: number;
}

const JSON_DEPTH = "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth";

/** A create's undecodable body: the decoder's error wrapped with the expected type and the body's start (transformDecodeError). */
function unrecognized(kind: string, inner: string, summary: string): string {
  return `the object provided is unrecognized (must be of type ${kind}): ${inner} (${summary})`;
}
const REVISIONS = '/apis/apps/v1/namespaces/budget/controllerrevisions';

const depthPaths: DepthPath[] = [
  {
    name: 'create (JSON)', list: CMS, ok: 201, refused: unrecognized('ConfigMap', JSON_DEPTH, '{"apiVersion":"v1","kind":"Con ...'),
    send: (d, i) => call('POST', CMS, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep-json-${i}"},"x":${nest(d)}}`),
  },
  {
    name: 'create (YAML)', list: CMS, ok: 201, refused: unrecognized('ConfigMap', 'yaml: exceeded max depth of 1000', '{"apiVersion":"v1","kind":"Con ...'),
    send: (d, i) => call('POST', CMS, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep-yaml-${i}"},"x":${nest(d)}}`, 'application/yaml'),
  },
  {
    name: 'create (protobuf, RawExtension)', list: REVISIONS, ok: 201,
    refused: 'ControllerRevision in version "v1" cannot be handled as a ControllerRevision: RawExtension is not JSON: invalid character \'{\' exceeded max depth',
    send: (d, i) => call('POST', REVISIONS, protobufRevision(`deep-pb-${i}`, nest(d)), 'application/vnd.kubernetes.protobuf'),
  },
  {
    name: 'JSON merge patch', list: CMS, ok: 200, refused: "error decoding patch: invalid character '{' exceeded max depth",
    send: (d) => call('PATCH', `${CMS}/target`, `{"x":${nest(d)}}`, 'application/merge-patch+json'),
  },
  {
    name: 'strategic merge patch', list: CMS, ok: 200, refused: "invalid character '{' exceeded max depth",
    send: (d) => call('PATCH', `${CMS}/target`, `{"x":${nest(d)}}`, 'application/strategic-merge-patch+json'),
  },
  {
    name: 'JSON patch', list: CMS, ok: 200, refused: "error decoding patch: invalid character '{' exceeded max depth",
    send: (d) => call('PATCH', `${CMS}/target`, `[{"op":"add","path":"/x","value":${nest(d)}}]`, 'application/json-patch+json'),
  },
  {
    name: 'apply', list: WIDGETS, ok: 200, refused: 'error decoding YAML: yaml: exceeded max depth of 1000',
    send: (d) => call('PATCH', `${WIDGETS}/target?fieldManager=m`, `{"apiVersion":"ex.com/v1","kind":"Widget","metadata":{"name":"target"},"spec":{"x":${nest(d)}}}`, 'application/apply-patch+yaml'),
  },
  {
    name: 'create a custom resource', list: WIDGETS, ok: 201, refused: unrecognized('Widget', JSON_DEPTH, '{"apiVersion":"ex.com/v1","kin ...'),
    send: (d, i) => call('POST', WIDGETS, `{"apiVersion":"ex.com/v1","kind":"Widget","metadata":{"name":"deep-${i}"},"spec":{"x":${nest(d)}}}`),
  },
  {
    name: 'merge patch of a custom resource', list: WIDGETS, ok: 200, refused: "error decoding patch: invalid character '{' exceeded max depth",
    send: (d) => call('PATCH', `${WIDGETS}/target`, `{"spec":{"y":${nest(d)}}}`, 'application/merge-patch+json'),
  },
  {
    name: 'CEL endpoint variables', list: CMS, ok: 200, refused: JSON_DEPTH,
    send: (d) => call('POST', '/x-playground/cel', `{"expression":"x == x","variables":{"x":${nest(d)}}}`),
  },
];

describe('nesting depth is bounded on every path (never a 500, never a stack overflow)', () => {
  beforeAll(async () => {
    expect((await call('POST', CMS, '{"metadata":{"name":"target"}}')).status).toBe(201);
    expect((await call('POST', WIDGETS, '{"apiVersion":"ex.com/v1","kind":"Widget","metadata":{"name":"target"},"spec":{}}')).status).toBe(201);
  });

  let i = 0;
  for (const p of depthPaths) {
    for (const d of [100, 10_000, 100_000]) {
      it(`${p.name}: ${d} levels`, async () => {
        const before = await contents(p.list);
        const r = await p.send(d, i++);
        if (d === 100) {
          expect([r.status, r.text.slice(0, 300)]).toEqual([p.ok, r.text.slice(0, 300)]);
        } else {
          expect(r.json).toEqual(failure(400, 'BadRequest', p.refused));
          expect(await contents(p.list)).toEqual(before);
        }
        await stillServing();
      });
    }
  }

  it('CEL endpoint expressions: the parser\'s limits as compile errors', async () => {
    const list = (d: number) => '['.repeat(d) + ']'.repeat(d);
    const sum = (d: number) => Array(d).fill('1').join('+');
    const cases: [string, string][] = [
      [list(100), ''],
      [list(10_000), 'expression recursion limit exceeded: 250'],
      [list(100_000), 'expression code point size exceeds limit: size: 200000, limit 100000'],
      [sum(100), ''],
      [sum(10_000), 'expression nesting limit exceeded: 500'],
      ['!'.repeat(10_000) + 'true', ''],
    ];
    for (const [expression, message] of cases) {
      const r = await call('POST', '/x-playground/cel', JSON.stringify({ expression }));
      expect(r.status).toBe(200);
      expect(r.json.error?.message ?? '').toBe(message);
    }
    await stillServing();
  });
});

// ---- destructive requests validate first --------------------------------------------------------------

describe('deletecollection validates every option before deleting', () => {
  const DC = '/api/v1/namespaces/dc/configmaps';
  beforeAll(async () => {
    for (const n of ['a', 'b', 'c']) expect((await call('POST', DC, JSON.stringify({ metadata: { name: n } }))).status).toBe(201);
  });

  const refused: [string, number, string, string][] = [
    ['continue=garbage', 400, 'BadRequest', 'invalid continue token: continue key is not valid: invalid character looking for beginning of value'],
    ['resourceVersion=abc', 400, 'BadRequest', 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax'],
    ['resourceVersion=-1', 400, 'BadRequest', 'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax'],
    ['limit=abc', 400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['timeoutSeconds=abc', 400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['gracePeriodSeconds=abc', 400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['labelSelector=a%3D%3D%3D', 400, 'BadRequest', "unable to parse requirement: found '=', expected: identifier"],
  ];
  for (const [query, code, reason, message] of refused) {
    it(`?${query}: ${code}, nothing deleted`, async () => {
      const before = await contents(DC);
      expect(Object.keys(before)).toEqual(['a', 'b', 'c', 'kube-root-ca.crt']);
      const r = await call('DELETE', `${DC}?${query}`);
      expect(r.json).toEqual(failure(code, reason, message));
      expect(await contents(DC)).toEqual(before);
    });
  }

  it('a continue token from an expired or foreign list is refused; a valid limit pages through everything', async () => {
    const before = await contents(DC);
    const r = await call('DELETE', `${DC}?resourceVersion=99999999`);
    expect(r.status).toBe(504);
    expect(await contents(DC)).toEqual(before);
    const all = await call('DELETE', `${DC}?limit=1`);
    expect(all.status).toBe(200);
    expect(all.json.items.map((o: any) => o.metadata.name)).toEqual(['a', 'b', 'c', 'kube-root-ca.crt']);
    // (the root-CA publisher puts its ConfigMap back, as in a real cluster)
    expect(Object.keys(await contents(DC)).filter((n) => n !== 'kube-root-ca.crt')).toEqual([]);
  });
});

describe('methods no route serves', () => {
  const NOT_ALLOWED = failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
  for (const method of ['PROPFIND', 'MKCOL', 'REPORT']) {
    it(`${method}: 405 on served paths, 404 elsewhere, nothing changed`, async () => {
      const before = await contents(CMS);
      for (const path of [CMS, `${CMS}/target`, '/api/v1', '/apis/apps/v1', '/version']) {
        const r = await call(method, path);
        expect([path, r.status]).toEqual([path, 405]);
        expect(r.json).toEqual(NOT_ALLOWED);
      }
      expect((await call(method, '/api/v1/namespaces/budget/nothings')).status).toBe(404);
      expect((await call(method, '/nowhere')).status).toBe(404);
      expect(await contents(CMS)).toEqual(before);
    });
  }
});

describe('custom-resource metadata has the types of ObjectMeta', () => {
  const cases: [string, string][] = [
    ['{"name":"f","finalizers":[5]}', 'map[string]interface {}{"finalizers":[]interface {}{5}, "name":"f"}: json: cannot unmarshal number into Go struct field ObjectMeta.finalizers of type string'],
    ['{"name":"l","labels":{"x":5}}', 'map[string]interface {}{"labels":map[string]interface {}{"x":5}, "name":"l"}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string'],
    ['{"name":"a","annotations":{"x":true}}', 'map[string]interface {}{"annotations":map[string]interface {}{"x":true}, "name":"a"}: json: cannot unmarshal bool into Go struct field ObjectMeta.annotations of type string'],
    ['{"name":"g","generation":"x"}', 'map[string]interface {}{"generation":"x", "name":"g"}: json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64'],
  ];
  for (const [metadata, detail] of cases) {
    it(`${metadata}: 400, nothing stored`, async () => {
      const before = await contents(WIDGETS);
      const r = await call('POST', WIDGETS, `{"apiVersion":"ex.com/v1","kind":"Widget","metadata":${metadata},"spec":{}}`);
      expect(r.json).toEqual(failure(400, 'BadRequest', `Widget in version "v1" cannot be handled as a Widget: metadata: Invalid value: ${detail}`));
      expect(await contents(WIDGETS)).toEqual(before);
    });
  }

  it('the same checks on update and patch', async () => {
    const before = await contents(WIDGETS);
    const put = await call('PUT', `${WIDGETS}/target`, `{"apiVersion":"ex.com/v1","kind":"Widget","metadata":{"name":"target","finalizers":[5]},"spec":{}}`);
    expect(put.status).toBe(400);
    expect(put.json.message).toBe('Widget in version "v1" cannot be handled as a Widget: metadata: Invalid value: map[string]interface {}{"finalizers":[]interface {}{5}, "name":"target"}: json: cannot unmarshal number into Go struct field ObjectMeta.finalizers of type string');
    // a patch whose result does not decode: the patch handler's 422 on field "patch", as the real server answers
    const patch = await call('PATCH', `${WIDGETS}/target`, '{"metadata":{"labels":{"x":5}}}', 'application/merge-patch+json');
    expect(patch.status).toBe(422);
    expect(patch.json.details.causes[0].field).toBe('patch');
    expect(patch.json.message).toContain('json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string');
    expect(await contents(WIDGETS)).toEqual(before);
  });
});

describe('timeoutSeconds', () => {
  it('must be an int64 on every list-like request', async () => {
    for (const path of [CMS, `${CMS}?watch=1`]) {
      for (const [v, why] of [['abc', 'invalid syntax'], ['1.5', 'invalid syntax'], ['99999999999999999999', 'value out of range'], ['', 'invalid syntax']]) {
        const r = await call('GET', `${path}${path.includes('?') ? '&' : '?'}timeoutSeconds=${v}`);
        expect(r.json).toEqual(failure(400, 'BadRequest', `strconv.ParseInt: parsing "${v}": ${why}`));
      }
    }
  });

  /** Opens a watch and reports whether its stream has ended within `ms`. */
  async function endsWithin(query: string, ms: number): Promise<boolean> {
    const abort = new AbortController();
    const r = await fetch(`${base}${CMS}?watch=1&resourceVersion=0&${query}`, { signal: abort.signal });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    const deadline = Date.now() + ms;
    try {
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        const next = await Promise.race([reader.read(), new Promise<'wait'>((res) => setTimeout(() => res('wait'), left))]);
        if (next === 'wait') return false;
        if (next.done) return true;
      }
    } finally {
      abort.abort();
    }
  }

  it('negative ends the watch at once; zero, long and wrapping values behave as Go\'s Duration arithmetic', async () => {
    expect(await endsWithin('timeoutSeconds=-1', 2000)).toBe(true);
    expect(await endsWithin('timeoutSeconds=1', 3000)).toBe(true);
    // 34 days: longer than a JS timer holds (it would otherwise fire at once)
    expect(await endsWithin('timeoutSeconds=3000000', 500)).toBe(false);
    expect(await endsWithin('timeoutSeconds=0', 500)).toBe(false);
    // (2^63-1) s in nanoseconds wraps to -1 s in Go: the watch ends at once
    expect(await endsWithin('timeoutSeconds=9223372036854775807', 2000)).toBe(true);
  });
});
