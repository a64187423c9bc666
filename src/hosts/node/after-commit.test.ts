// A response never fails after its write is stored (issue 11, item 4). Warnings are built from what the
// client sent (here: unknown field names under fieldValidation=Warn); a character above U+00FF in one made
// the response 500 after the object was stored. The header carries the text's UTF-8 bytes, as the real
// server writes it, and the write is answered 201 and stored exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { createApiServer, type ApiServer } from '../../engine/server.js';
import type { Storage } from '../../engine/storage/interface.js';
import { startHttpHost, type HttpHost } from './http-host.js';
import { rawRequest, type RawResponse } from './raw-http.js';

let storage: Storage;
let api: ApiServer;
let host: HttpHost;

beforeAll(async () => {
  storage = createMemoryStorage();
  api = createApiServer({ storage, env: systemEnv(), host: 'node' });
  await api.ready;
  host = await startHttpHost(api, { port: 0 });
});

afterAll(async () => {
  await host.close();
  await api.close();
});

const CM = '/api/v1/namespaces/default/configmaps';

/** The Warning headers as they came off the wire, decoded as UTF-8. */
function warnings(r: RawResponse): string[] {
  const out: string[] = [];
  for (let i = 0; i < r.rawHeaders.length; i += 2) {
    if (r.rawHeaders[i].toLowerCase() === 'warning') out.push(Buffer.from(r.rawHeaders[i + 1], 'latin1').toString('utf8'));
  }
  return out;
}

async function stored(name: string): Promise<number> {
  return (await storage.list('/core/configmaps/default/')).filter((s) => s.object.metadata?.name === name).length;
}

describe('warnings with any characters', () => {
  it('an unknown field named in Cyrillic, CJK and emoji: 201, the warning in UTF-8, stored once', async () => {
    const rev = await storage.revision();
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unicode' }, data: { k: 'v' }, 'поле字😀': 1 });
    const r = await rawRequest(host.port, 'POST', `${CM}?fieldValidation=Warn`, { headers: { 'Content-Type': 'application/json' }, body });
    expect(r.status, r.body).toBe(201);
    expect(warnings(r)).toEqual(['299 - "unknown field \\"поле字😀\\""']);
    expect((r.json() as { metadata: { name: string } }).metadata.name).toBe('unicode');
    expect(await stored('unicode')).toBe(1);
    expect(await storage.revision()).toBe(rev + 1);
  });

  it('the same on update and patch (the write is stored, then answered 200)', async () => {
    const put = await rawRequest(host.port, 'PUT', `${CM}/unicode?fieldValidation=Warn`, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unicode' }, data: { k: 'w' }, 'ünïcødé→': true }),
    });
    expect(put.status, put.body).toBe(200);
    expect(warnings(put)).toEqual(['299 - "unknown field \\"ünïcødé→\\""']);
    const patch = await rawRequest(host.port, 'PATCH', `${CM}/unicode?fieldValidation=Warn`, {
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ data: { k: 'x' }, 'ключ': 1 }),
    });
    expect(patch.status, patch.body).toBe(200);
    expect(warnings(patch)).toEqual(['299 - "unknown field \\"ключ\\""']);
    const got = await rawRequest(host.port, 'GET', `${CM}/unicode`);
    expect((got.json() as { data: { k: string } }).data.k).toBe('x');
    expect(await stored('unicode')).toBe(1);
  });

  it('several warnings stay separate headers, even when a text holds a comma and quotes', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'commas' }, 'a, 299 - "b"': 1, 'c\\d': 2 });
    const r = await rawRequest(host.port, 'POST', `${CM}?fieldValidation=Warn`, { headers: { 'Content-Type': 'application/json' }, body });
    expect(r.status, r.body).toBe(201);
    expect(warnings(r)).toEqual(['299 - "unknown field \\"a, 299 - \\\\\\"b\\\\\\"\\""', '299 - "unknown field \\"c\\\\\\\\d\\""']);
    expect(await stored('commas')).toBe(1);
  });

  it('a control character in an unknown field name: the warning is escaped as Go quotes it, the write stands', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'control' }, 'x\ny\u0000\u0085': 1 });
    const r = await rawRequest(host.port, 'POST', `${CM}?fieldValidation=Warn`, { headers: { 'Content-Type': 'application/json' }, body });
    expect(r.status, r.body).toBe(201);
    expect(warnings(r)).toEqual(['299 - "unknown field \\"x\\\\ny\\\\x00\\\\u0085\\""']);
    expect(await stored('control')).toBe(1);
  });
});
