import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeProtobufObject } from './decode.js';
import { encodeProtobufObject, encodeProtobufWatchFrame, parseGoDuration, parseTime, fromBase64 } from './encode.js';
import { goDuration } from './decode.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const upstream = JSON.parse(gunzipSync(readFileSync(path.join(here, 'fixtures/k8s-api/testdata-HEAD-v0.33.0.json.gz'))).toString('utf8')) as Record<string, { json: Record<string, unknown>; pb: string }>;

describe('protobuf encoder against the real marshaller (k8s.io/api v0.33.0 testdata)', () => {
  it('has a fixture for the kinds of every served group', () => {
    const names = Object.keys(upstream);
    expect(names.length).toBe(64);
    for (const k of ['core.v1.Pod', 'core.v1.Status', 'apps.v1.Deployment', 'batch.v1.CronJob', 'policy.v1.Eviction', 'autoscaling.v1.Scale', 'flowcontrol.apiserver.k8s.io.v1.FlowSchema', 'apiextensions.k8s.io.v1.CustomResourceDefinition']) {
      expect(names).toContain(k);
    }
  });

  for (const [name, fx] of Object.entries(upstream)) {
    it(`writes ${name} byte for byte and reads it back`, () => {
      const want = new Uint8Array(Buffer.from(fx.pb, 'base64'));
      const got = encodeProtobufObject(fx.json);
      expect(Buffer.from(got).toString('hex')).toBe(Buffer.from(want).toString('hex'));
      // the decoder gives back encoding/json's form of the same Go object, field for field
      const back = decodeProtobufObject(want, { responseKinds: true }).object;
      expect(JSON.stringify(back)).toBe(JSON.stringify({ apiVersion: fx.json.apiVersion, kind: fx.json.kind, ...without(fx.json, ['apiVersion', 'kind']) }));
    });
  }
});

function without(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
  return out;
}

describe('protobuf encoder rules', () => {
  it('writes the envelope, non-pointer zero values and no absent pointers', () => {
    const bytes = encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    const hex = Buffer.from(bytes).toString('hex');
    // k8s\0, typeMeta {v1, ConfigMap}
    expect(hex.startsWith('6b3873000a0f0a0276311209436f6e6669674d6170')).toBe(true);
    // contentEncoding and contentType are written empty
    expect(hex.endsWith('1a002200')).toBe(true);
    const back = decodeProtobufObject(bytes, { responseKinds: true }).object as { metadata: Record<string, unknown> };
    expect(back.metadata).toEqual({ name: 'a', creationTimestamp: null });
  });

  it('writes a list with its items', () => {
    const list = {
      apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7' },
      items: [{ metadata: { name: 'a', namespace: 'd' }, data: { k: 'v' } }, { metadata: { name: 'b' } }],
    };
    const bytes = encodeProtobufObject(list);
    const text = Buffer.from(bytes).toString('latin1');
    expect(text).toContain('ConfigMapList');
    expect(text.indexOf('\x0a\x01a')).toBeLessThan(text.indexOf('\x0a\x01b'));
  });

  it('frames a watch event: 4-byte big-endian length, WatchEvent {type, {raw: object}}', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
    const frame = encodeProtobufWatchFrame('ADDED', obj);
    const len = new DataView(frame.buffer).getUint32(0, false);
    expect(len).toBe(frame.length - 4);
    const inner = encodeProtobufObject(obj);
    const hex = Buffer.from(frame.subarray(4)).toString('hex');
    expect(hex.startsWith('0a054144444544')).toBe(true);
    expect(hex.endsWith(Buffer.from(inner).toString('hex'))).toBe(true);
  });

  it('refuses a kind with no protobuf form', () => {
    expect(() => encodeProtobufObject({ apiVersion: 'example.com/v1', kind: 'Widget' })).toThrow(/does not implement the protobuf marshalling interface/);
  });

  it('reads times, durations and base64 as Go does', () => {
    expect(parseTime('1970-01-01T00:00:01Z')).toEqual({ seconds: 1, nanos: 0 });
    expect(parseTime('2008-01-01T01:01:01.000123Z')).toEqual({ seconds: 1199149261, nanos: 123000 });
    expect(parseTime('0001-01-01T00:00:00Z')).toBeUndefined();
    expect(parseTime('1969-12-31T23:59:59Z')).toEqual({ seconds: -1, nanos: 0 });
    for (const d of [0n, 1n, 1500n, 2000000n, 90000000000n, 3723500000000n, -5000000000n]) expect(parseGoDuration(goDuration(d))).toBe(d);
    expect(Buffer.from(fromBase64('aGVsbG8=')).toString()).toBe('hello');
  });
});
