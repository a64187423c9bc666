// The two entries of the engine (handle: fetch Request in, fetch Response out; serve: EngineRequest in,
// EngineResponse out) answer the same status, headers and body bytes: two engines with the same fake clock
// and ids get the same requests in the same order, one through each entry.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient } from '../testing/harness.js';
import { engineRequest, WireHeaders, type EngineResponse } from './wire.js';

interface Call {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Read only the first line of a streamed body (a watch), then stop. */
  firstLine?: boolean;
}

const CM = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'wire' } }, data: { k: 'v' }, ...extra });
const JSON_CT = { 'Content-Type': 'application/json' };
const CMS = '/api/v1/namespaces/default/configmaps';

const CALLS: Call[] = [
  { method: 'POST', path: CMS, body: CM('a'), headers: JSON_CT },
  { method: 'POST', path: CMS, body: CM('b'), headers: { ...JSON_CT, 'User-Agent': 'kubectl/v1.33.0 (linux/amd64) kubernetes/60a317e' } },
  { method: 'POST', path: CMS, body: CM('a'), headers: JSON_CT }, // 409 AlreadyExists
  { method: 'POST', path: CMS, body: '{"apiVersion":', headers: JSON_CT }, // 400 undecodable
  { method: 'POST', path: CMS, body: CM('c', { spare: 1 }), headers: JSON_CT }, // unknown field: warning
  { method: 'POST', path: `${CMS}?fieldValidation=Strict`, body: CM('d', { spare: 1 }), headers: JSON_CT }, // 400 strict
  { method: 'GET', path: `${CMS}/a` },
  { method: 'GET', path: `${CMS}/a?pretty=true` },
  { method: 'GET', path: `${CMS}/a`, headers: { 'User-Agent': 'curl/8.5.0' } },
  { method: 'GET', path: `${CMS}/a`, headers: { Accept: 'application/yaml' } },
  { method: 'GET', path: `${CMS}/a`, headers: { Accept: 'application/vnd.kubernetes.protobuf' } },
  { method: 'GET', path: `${CMS}/a`, headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } },
  { method: 'GET', path: `${CMS}/a`, headers: { Accept: 'text/html' } }, // 406
  { method: 'GET', path: `${CMS}/missing` }, // 404
  { method: 'GET', path: `${CMS}/missing`, headers: { Accept: 'application/vnd.kubernetes.protobuf' } }, // 404 as protobuf
  { method: 'HEAD', path: `${CMS}/a` },
  { method: 'GET', path: CMS, headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)' } },
  { method: 'GET', path: `${CMS}?limit=1&labelSelector=app%3Dwire` },
  { method: 'GET', path: CMS, headers: { Accept: 'application/vnd.kubernetes.protobuf' } },
  { method: 'GET', path: '/api/v1/configmaps', headers: { Accept: 'application/yaml' } },
  { method: 'PUT', path: `${CMS}/a`, body: CM('a', { data: { k: 'changed' } }), headers: JSON_CT },
  { method: 'PUT', path: `${CMS}/a`, body: CM('a', { metadata: { name: 'a', resourceVersion: '1' } }), headers: JSON_CT }, // 409 conflict
  { method: 'PATCH', path: `${CMS}/a`, body: '{"metadata":{"labels":{"p":"1"}}}', headers: { 'Content-Type': 'application/merge-patch+json' } },
  { method: 'PATCH', path: `${CMS}/a`, body: '{"data":{"s":"2"}}', headers: { 'Content-Type': 'application/strategic-merge-patch+json' } },
  { method: 'PATCH', path: `${CMS}/a`, body: '[{"op":"add","path":"/data/j","value":"3"}]', headers: { 'Content-Type': 'application/json-patch+json' } },
  { method: 'PATCH', path: `${CMS}/e?fieldManager=wire`, body: CM('e'), headers: { 'Content-Type': 'application/apply-patch+yaml' } },
  { method: 'PATCH', path: `${CMS}/a`, body: '{}', headers: { 'Content-Type': 'text/plain' } }, // 415
  { method: 'GET', path: `${CMS}?watch=1&resourceVersion=0`, firstLine: true },
  { method: 'GET', path: `/api/v1/watch/namespaces/default/configmaps/a?resourceVersion=0`, firstLine: true },
  { method: 'GET', path: '/api/v1/namespaces/default/endpoints' }, // deprecated: Warning header
  { method: 'DELETE', path: `${CMS}/b` },
  { method: 'DELETE', path: `${CMS}/b` }, // 404
  { method: 'DELETE', path: `${CMS}?labelSelector=app%3Dwire` },
  { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wire' } }), headers: JSON_CT },
  { method: 'GET', path: '/api/v1/namespaces/wire', headers: { Accept: 'application/cbor' } },
  { method: 'GET', path: '/api/v1/namespaces/default/pods/p/log' },
  { method: 'GET', path: '/api' },
  { method: 'GET', path: '/apis', headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } },
  { method: 'GET', path: '/api/v1' },
  { method: 'GET', path: '/version' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz?verbose' },
  { method: 'GET', path: '/nope' },
  { method: 'OPTIONS', path: `${CMS}/a` }, // 405
  { method: 'GET', path: '/api/v1/namespaces/default/configmaps/a', headers: { 'Impersonate-User': 'jane' } },
  { method: 'GET', path: '/metrics' },
];

async function firstLineOf(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!stream) return '';
  const reader = stream.getReader();
  const dec = new TextDecoder();
  let text = '';
  while (!text.includes('\n')) {
    const { done, value } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text.slice(0, text.indexOf('\n') + 1);
}

function headerList(h: { forEach(cb: (v: string, k: string) => void): void }): [string, string][] {
  const out: [string, string][] = [];
  h.forEach((v, k) => void out.push([k, v]));
  return out;
}

describe('the two entries', () => {
  it('answer the same status, headers and body bytes for every verb, errors, a watch, pretty, protobuf, YAML and CBOR', async () => {
    const gates = { CBORServingAndStorage: true };
    const viaFetch = await testClient(createMemoryStorage(), { controllers: [], featureGates: gates });
    const viaServe = await testClient(createMemoryStorage(), { controllers: [], featureGates: gates });
    const base = 'http://127.0.0.1';
    const seen = new Set<number>();
    for (const c of CALLS) {
      const headers = c.headers ?? {};
      // fetch refuses a Request with a body on GET/HEAD and methods it forbids; none is used here
      const fetchRes = await viaFetch.server.handle(new Request(base + c.path, { method: c.method, headers, body: c.body }));
      const engRes: EngineResponse = await viaServe.server.serve(engineRequest(c.method, base + c.path, Object.entries(headers), c.body));
      const what = `${c.method} ${c.path} ${JSON.stringify(headers)}`;
      seen.add(fetchRes.status);
      expect(engRes.status, what).toBe(fetchRes.status);
      expect(engRes.statusText, what).toBe(fetchRes.statusText);
      expect(headerList(engRes.headers), what).toEqual(headerList(fetchRes.headers));
      if (c.firstLine) {
        const a = await firstLineOf(fetchRes.body);
        expect(a, what).toMatch(/^\{"type":"ADDED"/);
        expect(await firstLineOf(engRes.stream()), what).toBe(a);
      } else {
        const a = new Uint8Array(await fetchRes.arrayBuffer());
        expect(Buffer.from(await engRes.bytes()).toString('base64'), what).toBe(Buffer.from(a).toString('base64'));
      }
    }
    // the spread reached successes and the usual errors
    for (const code of [200, 201, 400, 403, 404, 405, 406, 409, 415]) expect(seen, `status ${code}`).toContain(code);
    await viaFetch.server.close();
    await viaServe.server.close();
  });

  it('a request body given as bytes, as text or as a stream is read the same', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [] });
    const body = CM('s');
    const asStream = await c.server.serve({ ...engineRequest('POST', `http://127.0.0.1${CMS}?dryRun=All`, [['Content-Type', 'application/json']]), body: new Response(body).body });
    const asBytes = await c.server.serve({ ...engineRequest('POST', `http://127.0.0.1${CMS}?dryRun=All`, [['Content-Type', 'application/json']]), bodyBytes: new TextEncoder().encode(body) });
    const asText = await c.server.serve(engineRequest('POST', `http://127.0.0.1${CMS}?dryRun=All`, [['Content-Type', 'application/json']], body));
    expect(asStream.status).toBe(201);
    const texts = [await asStream.text(), await asBytes.text(), await asText.text()].map((t) => t.replace(/"(uid|creationTimestamp|time)":"[^"]*"/g, ''));
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
    // past the budget: the same 413 whichever way the body came
    const big = 'x'.repeat(3 * 1024 * 1024 + 1);
    const tooLarge = await c.server.serve(engineRequest('POST', `http://127.0.0.1${CMS}`, [['Content-Type', 'application/json']], big));
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(await tooLarge.text()).message).toBe('Request entity too large: limit is 3145728');
    await c.server.close();
  });

  it('the header list reads and iterates as a fetch Headers object', () => {
    const pairs: [string, string][] = [
      ['Warning', '299 - "b"'], ['content-type', 'application/json'], ['X-B', ' padded\t'], ['warning', '299 - "a"'],
      ['Audit-Id', 'x'], ['Cache-Control', 'no-cache, private'], ['WARNING', '299 - "c"'], ['x-a', '1'], ['X-A', '2'],
    ];
    const ours = new WireHeaders(pairs);
    const theirs = new Headers(pairs);
    expect(headerList(ours)).toEqual(headerList(theirs));
    for (const n of ['warning', 'X-A', 'x-b', 'Content-Type', 'missing']) {
      expect(ours.get(n), n).toBe(theirs.get(n));
      expect(ours.has(n), n).toBe(theirs.has(n));
    }
    ours.set('x-a', '3');
    theirs.set('x-a', '3');
    ours.delete('Warning');
    theirs.delete('Warning');
    ours.append('Z', 'last');
    theirs.append('Z', 'last');
    expect(headerList(ours)).toEqual(headerList(theirs));
  });
});
