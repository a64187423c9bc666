// A response's Warning headers as the real server's warning recorder writes them (apiserver
// pkg/endpoints/filters/warning.go): each text once, and past 4,096 characters in all every text cut to 256.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import type { OutboundHttp } from '../env.js';
import { fakeEnv, testClient, type TestClient } from '../testing/harness.js';
import { warningHeaders } from './responders.js';

const CM = '/api/v1/namespaces/default/configmaps';

function warningsOf(r: { headers: Headers }): string[] {
  return (r.headers.get('Warning') ?? '').split(/(?<=")\s*,\s*(?=299 )/).filter(Boolean);
}

/** A cluster whose validating webhook allows every create of `resource` (core group) with `warnings`. */
async function withWarningWebhook(resource: string, warnings: string[]): Promise<TestClient> {
  const http: OutboundHttp = {
    async post(_url, body) {
      const review = JSON.parse(body) as { request: { uid: string } };
      return { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, warnings } }) };
    },
  };
  const c = await testClient(createMemoryStorage(), { controllers: [], env: { ...fakeEnv(), http } });
  const hook = {
    name: 'warn.example.com', clientConfig: { url: 'https://hooks.example.com/warn' }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: [resource] }],
  };
  expect((await c.req('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { metadata: { name: 'warn' }, webhooks: [hook] })).status).toBe(201);
  return c;
}

describe('warnings on the wire', () => {
  let c: TestClient;
  beforeEach(async () => {
    c = await testClient(createMemoryStorage(), { controllers: [] });
  });

  it('a text warned twice is written once (a webhook answering the same warning twice, and another twice in a row)', async () => {
    c = await withWarningWebhook('configmaps', ['same', 'other', 'same', 'same']);
    const r = await c.req('POST', CM, { metadata: { name: 'w' } });
    expect(r.status).toBe(201);
    expect(warningsOf(r)).toEqual(['299 - "same"', '299 - "other"']);
  });

  it('past 4,096 characters of warnings, each is cut to 256 characters', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, '0')}${'x'.repeat(300)}`);
    const r = await c.req('POST', `${CM}?fieldValidation=Warn`, { metadata: { name: 'long' }, ...Object.fromEntries(names.map((n) => [n, 1])) });
    expect(r.status).toBe(201);
    // each text is 320 characters: 12 fit whole; the 13th passes 4,096, so all are written cut to 256, and
    // cut ones fill 4,096 again with the 16th: the last four are dropped, as the real recorder drops them
    const cut = (name: string) => `unknown field "${name}"`.slice(0, 256);
    expect(warningsOf(r)).toEqual(names.slice(0, 16).map((n) => `299 - "${cut(n).replaceAll('"', '\\"')}"`));
  });
});

describe('the deprecation warning under the same rule', () => {
  const EP = '/api/v1/namespaces/default/endpoints';
  const DEPRECATED = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';
  let c: TestClient;
  beforeEach(async () => {
    c = await testClient(createMemoryStorage(), { controllers: [] });
  });

  it('counts toward the 4,096 characters: handler warnings that fit alone are cut once it is counted first', async () => {
    // five texts of 810 characters: 4,050 alone (written whole), 4,130 after the deprecation's 80: all cut
    const names = Array.from({ length: 5 }, (_, i) => `f${i}${'y'.repeat(792)}`);
    const texts = names.map((n) => `unknown field "${n}"`);
    expect(texts.every((t) => t.length === 810)).toBe(true);
    const r = await c.req('POST', `${EP}?fieldValidation=Warn`, { metadata: { name: 'long' }, ...Object.fromEntries(names.map((n) => [n, 1])) });
    expect(r.status).toBe(201);
    const quoted = (t: string) => `299 - "${t.replaceAll('"', '\\"')}"`;
    expect(warningsOf(r)).toEqual([quoted(DEPRECATED), ...texts.map((t) => quoted(t.slice(0, 256)))]);
  });

  it('is written once when a webhook warns the same text', async () => {
    c = await withWarningWebhook('endpoints', [DEPRECATED, 'mine']);
    const r = await c.req('POST', EP, { metadata: { name: 'w' } });
    expect(r.status).toBe(201);
    expect(warningsOf(r)).toEqual([`299 - "${DEPRECATED}"`, '299 - "mine"']);
  });
});

describe('warningHeaders', () => {
  it('keeps order, drops empty texts and repeats', () => {
    expect(warningHeaders(['b', '', 'a', 'b'])).toEqual(['299 - "b"', '299 - "a"']);
  });

  it('writes whole texts up to 4,096 characters in all, then every text cut, and nothing once that is passed again', () => {
    const t = (i: number, n: number) => `${i}`.padEnd(n, '.');
    // 16 texts of 256: exactly 4,096, all whole
    expect(warningHeaders(Array.from({ length: 16 }, (_, i) => t(i, 256))).map((h) => h.length - 8)).toEqual(Array(16).fill(256));
    // two of 3,000: the second passes the limit, both are written cut to 256
    expect(warningHeaders([t(1, 3000), t(2, 3000)])).toEqual([`299 - "${t(1, 256)}"`, `299 - "${t(2, 256)}"`]);
    // cut texts count 256 each: 16 fill 4,096 again, and every later one is dropped
    const many = warningHeaders([t(0, 5000), ...Array.from({ length: 20 }, (_, i) => t(i + 1, 300))]);
    expect(many).toHaveLength(16);
    expect(many.every((h) => h.length === 256 + 8)).toBe(true);
  });

  it('counts characters as code points, as Go counts runes', () => {
    const astral = '𝔸'.repeat(300); // 300 runes, 600 UTF-16 units
    const [h] = warningHeaders([astral, 'x'.repeat(3900)]);
    expect(h).toBe(`299 - "${'𝔸'.repeat(256)}"`);
  });
});
