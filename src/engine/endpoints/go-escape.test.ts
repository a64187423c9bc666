// JSON bodies are written as Go's encoding/json writes them: inside strings `<`, `>`, `&`, U+2028 and U+2029
// are escaped as \u003c, \u003e, \u0026, \u2028, \u2029 (the real server encodes every JSON body with
// encoding/json, which HTML-escapes by default). Every path that writes a JSON body or frame is held here:
// an object's get (compact and pretty, the write answer's hand-over and the cached bytes), a create answer,
// compact and pretty lists (short, and streamed past the stream threshold; pretty items made from scratch and
// from cached compact bytes), a watch event, a Table, Status messages (compact and the raw indented form),
// the RawExtension JSON inside a protobuf body, and, over the catalog, the create answer and get of every
// built-in kind with a string (an annotation) holding the characters. YAML stays unescaped, as Go's YAML
// writer leaves it.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from '../resources/index.js';
import { sampleObject } from '../resources/samples.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../object.js';
import { goJsonMarshal, goJsonText } from '../codec/go-format.js';

/** The value every test writes, and its bytes as encoding/json writes them inside a string. */
const VALUE = 'a<b>&c\u2028d\u2029e';
const ESCAPED = 'a\\u003cb\\u003e\\u0026c\\u2028d\\u2029e';
const RAW = /[<>&\u2028\u2029]/;

let c: TestClient;

beforeAll(async () => {
  c = await testClient(createMemoryStorage());
  for (const ns of ['esc', 'esc-list', 'esc-pretty', 'esc-cached', 'esc-stream', 'esc-catalog']) {
    expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  }
});

function configMap(name: string, extra: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { t: 'esc' }, annotations: { note: VALUE } }, data: { k: VALUE, ...extra } } as KubeObject;
}

/** The body holds the escaped value where the string stood, no raw character, and parses back to the value. */
function expectEscaped(text: string, occurrences: number): void {
  expect(text).not.toMatch(RAW);
  expect(text.split(ESCAPED).length - 1).toBe(occurrences);
  expect(text).toBe(goJsonText(text)); // idempotent: nothing left to escape
}

describe('goJsonText', () => {
  it('escapes exactly as encoding/json does over every character of the BMP but lone surrogates', () => {
    let all = '';
    for (let cp = 0; cp < 0x10000; cp++) if (cp < 0xd800 || cp > 0xdfff) all += String.fromCharCode(cp);
    all += '\u{1f600}';
    const value = { [all]: [all, { k: all }], z: 1 }; // keys in Go's (sorted) order, integers only
    expect(goJsonText(JSON.stringify(value))).toBe(goJsonMarshal(value));
  });

  it('returns a text without those characters unchanged, and escapes the indented form the same way', () => {
    const text = JSON.stringify({ a: 'plain "text" \\ \n é' });
    expect(goJsonText(text)).toBe(text);
    expect(goJsonText(JSON.stringify({ a: '<&>' }, null, 2))).toBe('{\n  "a": "\\u003c\\u0026\\u003e"\n}');
  });
});

describe('object bodies', () => {
  it('a create answer, the get after it (hand-over), a cached get and a pretty get', async () => {
    const created = await c.req('POST', '/api/v1/namespaces/esc/configmaps', configMap('one'));
    expect(created.status).toBe(201);
    expectEscaped(created.text, 2);
    expect(created.text).toContain(`"annotations":{"note":"${ESCAPED}"}`);
    expect(created.text).toContain(`"data":{"k":"${ESCAPED}"}`);
    expect(created.body.data.k).toBe(VALUE);
    expect(created.body.metadata.annotations.note).toBe(VALUE);
    const got = await c.req('GET', '/api/v1/namespaces/esc/configmaps/one');
    expect(got.text).toBe(created.text);
    const again = await c.req('GET', '/api/v1/namespaces/esc/configmaps/one');
    expect(again.text).toBe(created.text);
    const pretty = await c.req('GET', '/api/v1/namespaces/esc/configmaps/one?pretty=true');
    expectEscaped(pretty.text, 2);
    expect(pretty.text).toContain(`"k": "${ESCAPED}"`);
    expect(pretty.body).toEqual(got.body);
  });

  it('an update answer and a merge patch answer', async () => {
    const got = await c.req('GET', '/api/v1/namespaces/esc/configmaps/one');
    const put = await c.req('PUT', '/api/v1/namespaces/esc/configmaps/one', { ...got.body, data: { k: VALUE, k2: VALUE } });
    expect(put.status).toBe(200);
    expectEscaped(put.text, 3);
    const patched = await c.req('PATCH', '/api/v1/namespaces/esc/configmaps/one', JSON.stringify({ data: { k3: VALUE } }), { 'Content-Type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    expectEscaped(patched.text, 4);
    expect(patched.body.data).toEqual({ k: VALUE, k2: VALUE, k3: VALUE });
  });

  it('YAML is written unescaped, as Go\'s YAML writer does', async () => {
    const yaml = await c.req('GET', '/api/v1/namespaces/esc/configmaps/one', undefined, { Accept: 'application/yaml' });
    expect(yaml.text).toContain('k: "a<b>&c\\Ld\\Pe"');
    expect(yaml.text).not.toContain('\\u003c');
  });
});

describe('lists', () => {
  it('a compact list and a pretty list, pretty items made from scratch and from cached compact bytes', async () => {
    for (const n of ['a', 'b']) expect((await c.req('POST', '/api/v1/namespaces/esc-pretty/configmaps', configMap(n))).status).toBe(201);
    // nothing cached as compact bytes yet but the hand-over: the pretty items are serialized with the indent
    const pretty = await c.req('GET', '/api/v1/namespaces/esc-pretty/configmaps?labelSelector=t%3Desc&pretty=true');
    expectEscaped(pretty.text, 4);
    expect(pretty.text).toContain(`"k": "${ESCAPED}"`);
    expect(pretty.body.items.map((o: KubeObject) => (o as any).data.k)).toEqual([VALUE, VALUE]);
    const compact = await c.req('GET', '/api/v1/namespaces/esc-pretty/configmaps?labelSelector=t%3Desc');
    expectEscaped(compact.text, 4);
    expect(compact.body).toEqual(pretty.body);

    for (const n of ['a', 'b']) expect((await c.req('POST', '/api/v1/namespaces/esc-cached/configmaps', configMap(n))).status).toBe(201);
    const first = await c.req('GET', '/api/v1/namespaces/esc-cached/configmaps?labelSelector=t%3Desc');
    expectEscaped(first.text, 4);
    // the pretty items now come from the compact bytes kept with the objects
    const fromCached = await c.req('GET', '/api/v1/namespaces/esc-cached/configmaps?labelSelector=t%3Desc', undefined, { 'User-Agent': 'Mozilla/5.0 (X11)' });
    expectEscaped(fromCached.text, 4);
    expect(fromCached.text).toContain(`\n        "k": "${ESCAPED}"\n`);
    expect(fromCached.body).toEqual(first.body);
  });

  it('a streamed list (past the 256-item threshold), compact and pretty', async () => {
    for (let i = 0; i < 260; i++) {
      const r = await c.req('POST', '/api/v1/namespaces/esc-stream/configmaps', i % 52 === 0 ? configMap(`s${i}`) : { metadata: { name: `s${i}`, labels: { t: 'esc' } }, data: { k: 'plain' } });
      expect(r.status).toBe(201);
    }
    const res = await c.server.handle(new Request('http://127.0.0.1/api/v1/namespaces/esc-stream/configmaps?labelSelector=t%3Desc'));
    expect(res.body).toBeInstanceOf(ReadableStream);
    const compact = await res.text();
    expectEscaped(compact, 10);
    const list = JSON.parse(compact);
    expect(list.items).toHaveLength(260);
    expect(list.items.filter((o: any) => o.data.k === VALUE)).toHaveLength(5);
    const pretty = await c.req('GET', '/api/v1/namespaces/esc-stream/configmaps?labelSelector=t%3Desc&pretty=1');
    expectEscaped(pretty.text, 10);
    expect(pretty.body).toEqual(list);
  });

  it('a Table with the objects', async () => {
    const t = await c.req('GET', '/api/v1/namespaces/esc/configmaps?labelSelector=t%3Desc&includeObject=Object', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(t.status).toBe(200);
    expect(t.body.kind).toBe('Table');
    expectEscaped(t.text, 4);
    expect(t.body.rows[0].object.data.k).toBe(VALUE);
  });
});

describe('watch', () => {
  it('an event frame', async () => {
    const ac = new AbortController();
    const res = await c.server.handle(
      new Request('http://127.0.0.1/api/v1/namespaces/esc/configmaps?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Done', { signal: ac.signal }),
    );
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 2000;
    while (!text.includes('\n') && Date.now() < deadline) {
      const r = await Promise.race([reader.read(), new Promise<{ done: true; value: undefined }>((ok) => setTimeout(() => ok({ done: true, value: undefined }), 2000))]);
      if (r.done) break;
      text += dec.decode(r.value, { stream: true });
    }
    ac.abort();
    await reader.cancel().catch(() => undefined);
    const frame = text.slice(0, text.indexOf('\n') + 1);
    expect(frame.startsWith('{"type":"ADDED","object":{"kind":"ConfigMap"')).toBe(true);
    expectEscaped(frame, 4);
    expect(JSON.parse(frame).object.data.k3).toBe(VALUE);
  });
});

describe('Status bodies', () => {
  it('a compact Status whose message holds the characters', async () => {
    const r = await c.req('GET', '/api/v1/namespaces/esc/configmaps/a%3Cb%26c');
    expect(r.status).toBe(404);
    expect(r.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"a\\u003cb\\u0026c\\" not found","reason":"NotFound","details":{"name":"a\\u003cb\\u0026c","kind":"configmaps"},"code":404}\n',
    );
    expect(r.body.message).toBe('configmaps "a<b&c" not found');
  });

  it('a 422 from validation', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/esc/configmaps', { metadata: { name: 'A>b' } });
    expect(r.status).toBe(422);
    expect(r.text).toContain('"message":"ConfigMap \\"A\\u003eb\\" is invalid: metadata.name: Invalid value: \\"A\\u003eb\\": ');
    expect(r.text).not.toMatch(RAW);
    expect(r.body.details.name).toBe('A>b');
  });

  it('the raw indented Status of an error no Accept type can carry', async () => {
    // a forbidden request is refused before its Accept is negotiated: the Status is written raw (WriteRawJSON)
    const r = await c.req('GET', '/api/v1/namespaces/esc/configmaps/a%3Cb', undefined, { Accept: 'text/plain', 'Impersonate-User': 'x>y' });
    expect(r.status).toBe(403);
    expect(r.text).toBe(
      [
        '{',
        '  "kind": "Status",',
        '  "apiVersion": "v1",',
        '  "metadata": {},',
        '  "status": "Failure",',
        '  "message": "configmaps \\"a\\u003cb\\" is forbidden: User \\"x\\u0026gt;y\\" cannot get resource \\"configmaps\\" in API group \\"\\" in the namespace \\"esc\\"",',
        '  "reason": "Forbidden",',
        '  "details": {',
        '    "name": "a\\u003cb",',
        '    "kind": "configmaps"',
        '  },',
        '  "code": 403',
        '}',
      ].join('\n'),
    );
    expect(r.body.details.name).toBe('a<b');
  });
});

describe('protobuf', () => {
  it('the JSON of a RawExtension (a ControllerRevision\'s data) inside the protobuf body', async () => {
    const cr = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'rev' }, revision: 1, data: { note: VALUE } };
    expect((await c.req('POST', '/apis/apps/v1/namespaces/esc/controllerrevisions', cr)).status).toBe(201);
    const res = await c.server.handle(new Request('http://127.0.0.1/apis/apps/v1/namespaces/esc/controllerrevisions/rev', { headers: { Accept: 'application/vnd.kubernetes.protobuf' } }));
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const latin = Array.from(bytes, (b) => String.fromCharCode(b)).join('');
    expect(latin).toContain(`{"note":"${ESCAPED}"}`);
  });
});

describe('every built-in kind: an annotation holding the characters', () => {
  const ns = 'esc-catalog';
  const path = (def: ResourceDefinition, name?: string) => {
    const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
    return `${base}${def.namespaced ? `/namespaces/${ns}` : ''}/${def.plural}${name ? `/${name}` : ''}`;
  };
  for (const def of builtinResources) {
    it(`${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}: create answer, get and list`, async () => {
      const name = `esc-${builtinResources.indexOf(def)}`;
      const sample = sampleObject(def, name, ns) ?? ({ apiVersion: `${def.group}/${def.version}`, kind: def.kind, metadata: { name } } as KubeObject);
      const body = { ...sample, metadata: { ...sample.metadata, annotations: { ...(sample.metadata?.annotations ?? {}), 'example.com/escape': VALUE } } };
      const created = await c.req('POST', path(def), body);
      expect(created.status, created.text).toBe(201);
      expect(created.text).toContain(`"example.com/escape":"${ESCAPED}"`);
      expect(created.text).not.toMatch(RAW);
      expect(created.body.metadata.annotations['example.com/escape']).toBe(VALUE);
      const got = await c.req('GET', path(def, created.body.metadata.name));
      expect(got.text).toContain(`"example.com/escape":"${ESCAPED}"`);
      expect(got.text).not.toMatch(RAW);
      const list = await c.req('GET', `${path(def)}?fieldSelector=metadata.name%3D${created.body.metadata.name}`);
      expect(list.text).toContain(`"example.com/escape":"${ESCAPED}"`);
      expect(list.text).not.toMatch(RAW);
      expect(list.body.items[0].metadata.annotations['example.com/escape']).toBe(VALUE);
    });
  }
});
