// Protobuf (and CBOR) on the wire: responses for get/list/watch/writes/errors over the whole catalog,
// negotiation as the real server does it (custom resources and Tables have no protobuf form), and
// protobuf request bodies for create, update, delete (DeleteOptions) and the scale subresource.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from '../resources/index.js';
import { sampleObject } from '../resources/samples.js';
import { groupVersion, type ResourceDefinition } from '../registry/types.js';
import { decodeProtobufObject } from '../codec/protobuf/decode.js';
import { encodeProtobufObject, encodeProtobufMessage } from '../codec/protobuf/encode.js';
import { encodeCbor } from './negotiation/encode.js';
import { servesProtobuf } from './scope.js';
import { decodeCbor } from '../codec/cbor.js';

const PB = 'application/vnd.kubernetes.protobuf';

function nsOf(def: ResourceDefinition): string {
  return `pb-${builtinResources.indexOf(def)}`;
}

function path(def: ResourceDefinition, name?: string, ns = nsOf(def)): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return `${base}${def.namespaced ? `/namespaces/${ns}` : ''}/${def.plural}${name ? `/${name}` : ''}`;
}

async function bytesOf(r: Response): Promise<Uint8Array> {
  return new Uint8Array(await r.arrayBuffer());
}

function decoded(bytes: Uint8Array): Record<string, unknown> {
  return decodeProtobufObject(bytes, { responseKinds: true }).object;
}

/** Key order aside: JSON values compared as sets of members. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  return v;
}

/**
 * What encoding/json writes for the Go struct a JSON object decodes into: the engine's JSON (which leaves
 * out some zero values the Go struct would write) read through the protobuf form equals the protobuf GET.
 */
function goForm(json: Record<string, unknown>): unknown {
  return sorted(decoded(encodeProtobufObject(json)));
}

/** Paths where `json` has a member `got` lacks or holds differently (what a protobuf answer would lose). */
function lost(json: unknown, got: unknown, at = ''): string[] {
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    if (!got || typeof got !== 'object' || Array.isArray(got)) return [at || '.'];
    return Object.entries(json).flatMap(([k, v]) => (v === null && (got as Record<string, unknown>)[k] === undefined ? [] : lost(v, (got as Record<string, unknown>)[k], `${at}.${k}`)));
  }
  if (Array.isArray(json)) {
    if (!Array.isArray(got) || got.length !== json.length) return [at];
    return json.flatMap((v, i) => lost(v, got[i], `${at}[${i}]`));
  }
  return json === got ? [] : [at];
}

let c: TestClient;
const served = builtinResources.filter((d) => servesProtobuf(d));

beforeAll(async () => {
  c = await testClient(createMemoryStorage());
  for (const def of builtinResources) if (def.namespaced) expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: nsOf(def) } })).status).toBe(201);
});

describe('protobuf responses over the catalog', () => {
  it('every built-in kind has a protobuf form', () => {
    const without = builtinResources.filter((d) => !servesProtobuf(d)).map((d) => `${d.group}/${d.plural}`);
    expect(without).toEqual([]);
  });

  for (const def of served) {
    it(`${def.group || 'core'}/${def.version} ${def.kind}: create, get, list, update in protobuf agree with JSON`, async () => {
      const sample = sampleObject(def, `pb-${def.version}`, nsOf(def))!;
      expect(sample).toBeDefined();
      // (a CustomResourceDefinition's sample names itself <plural>.<group>)
      const name = sample.metadata!.name!;
      // create with a protobuf body, answered in protobuf
      const created = await c.raw('POST', path(def), encodeProtobufObject(sample as Record<string, unknown>), { 'Content-Type': PB, Accept: PB });
      const createdBytes = await bytesOf(created);
      expect(created.status, JSON.stringify(created.status === 201 ? '' : decoded(createdBytes))).toBe(201);
      expect(created.headers.get('Content-Type')).toBe(PB);
      expect([...createdBytes.slice(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
      // get: protobuf and JSON agree (encoding/json's form of one Go object)
      const json = (await c.req('GET', path(def, name))).body as Record<string, unknown>;
      const g = await c.raw('GET', path(def, name), undefined, { Accept: PB });
      expect(g.headers.get('Content-Type')).toBe(PB);
      const gbytes = await bytesOf(g);
      expect(sorted(decoded(gbytes))).toEqual(goForm(json));
      // nothing of the JSON answer is lost in the protobuf one
      expect(lost(json, decoded(gbytes))).toEqual([]);
      // the envelope names the served version and kind
      const env = decodeProtobufObject(gbytes, { responseKinds: true });
      expect([env.apiVersion, env.kind]).toEqual([groupVersion(def), def.kind]);
      // list
      const l = await c.raw('GET', path(def), undefined, { Accept: `${PB}, application/json` });
      expect(l.headers.get('Content-Type')).toBe(PB);
      const list = decoded(await bytesOf(l)) as { kind: string; items: Array<{ metadata: { name: string } }> };
      expect(list.kind).toBe(`${def.kind}List`);
      expect(list.items.map((i) => i.metadata.name)).toContain(name);
      // update with a protobuf body (the object as read back)
      const u = await c.raw('PUT', path(def, name), gbytes, { 'Content-Type': PB, Accept: PB });
      expect(u.status, JSON.stringify(u.status === 200 ? '' : decoded(await bytesOf(u.clone())))).toBe(200);
      expect(decoded(await bytesOf(u)).metadata).toMatchObject({ name });
    });
  }
});

describe('protobuf watch, errors, negotiation', () => {
  const CM = '/api/v1/namespaces/default/configmaps';

  it('a watch is a stream of length-prefixed WatchEvent frames, each holding the object in its envelope', async () => {
    await c.req('POST', CM, { metadata: { name: 'w1' }, data: { a: '1' } });
    const ac = new AbortController();
    const res = await c.server.handle(new Request(`http://x${CM}?watch=true&fieldSelector=metadata.name%3Dw1&allowWatchBookmarks=true`, { headers: { Accept: PB }, signal: ac.signal }));
    expect(res.headers.get('Content-Type')).toBe(`${PB};stream=watch`);
    const reader = res.body!.getReader();
    let buf = new Uint8Array(0);
    const frames: Array<{ type: string; object: Record<string, unknown> }> = [];
    const next = async () => {
      for (;;) {
        if (buf.length >= 4) {
          const len = new DataView(buf.buffer, buf.byteOffset).getUint32(0, false);
          if (buf.length >= 4 + len) {
            const frame = buf.subarray(4, 4 + len);
            buf = buf.slice(4 + len);
            // WatchEvent {1: type, 2: RawExtension {1: raw}}
            const hex = Buffer.from(frame);
            const typeLen = hex[1];
            const type = hex.subarray(2, 2 + typeLen).toString();
            let at = 2 + typeLen;
            expect(hex[at]).toBe(0x12);
            at++;
            while (hex[at] & 0x80) at++;
            at++;
            expect(hex[at]).toBe(0x0a);
            at++;
            while (hex[at] & 0x80) at++;
            at++;
            frames.push({ type, object: decoded(new Uint8Array(hex.subarray(at))) });
            return;
          }
        }
        const { value, done } = await reader.read();
        if (done || !value) throw new Error('stream ended');
        const joined = new Uint8Array(buf.length + value.length);
        joined.set(buf);
        joined.set(value, buf.length);
        buf = joined;
      }
    };
    await next();
    expect(frames[0]).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'w1' }, data: { a: '1' } } });
    await c.req('PATCH', `${CM}/w1`, { data: { a: '2' } }, { 'Content-Type': 'application/merge-patch+json' });
    await next();
    expect(frames[1]).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'w1' }, data: { a: '2' } } });
    await c.req('DELETE', `${CM}/w1`);
    await next();
    expect(frames[2]).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'w1' } } });
    ac.abort();
  });

  it('errors are Status messages in protobuf when protobuf is acceptable; indented JSON when nothing is', async () => {
    const r = await c.raw('GET', `${CM}/missing`, undefined, { Accept: `${PB}, application/json` });
    expect(r.status).toBe(404);
    expect(r.headers.get('Content-Type')).toBe(PB);
    const status = decodeProtobufObject(await bytesOf(r), { responseKinds: true });
    expect([status.apiVersion, status.kind]).toEqual(['v1', 'Status']);
    expect(status.object).toEqual({
      apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'configmaps "missing" not found', reason: 'NotFound',
      details: { name: 'missing', kind: 'configmaps' }, code: 404,
    });
    // the same Status as the real marshaller writes it (field order, the empty ListMeta)
    expect(Buffer.from(await bytesOf(await c.raw('GET', `${CM}/missing`, undefined, { Accept: PB }))).toString('hex')).toBe(
      Buffer.from(encodeProtobufObject(status.object)).toString('hex'),
    );
    // (a resource's GET negotiates first, a 406; an unknown path has no handler to do so)
    const t = await c.raw('GET', '/api/v1/namespaces/default/nothings/x', undefined, { Accept: 'text/html' });
    expect(t.status).toBe(404);
    expect(t.headers.get('Content-Type')).toBe('application/json');
    expect(await t.text()).toMatch(/^\{\n {2}"kind": "Status",/);
  });

  it('a Table is never protobuf: the next clause is used, or 406', async () => {
    const table = ';as=Table;g=meta.k8s.io;v=v1';
    const r = await c.raw('GET', CM, undefined, { Accept: `${PB}${table}, application/json${table}, application/json` });
    expect(r.headers.get('Content-Type')).toBe(`application/json${table}`);
    const n = await c.req('GET', CM, undefined, { Accept: `${PB}${table}` });
    expect(n.status).toBe(406);
    expect(n.body.message).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  });

  it('the stream=watch form names the same serializer; YAML has no stream form', async () => {
    const ac = new AbortController();
    const w = await c.server.handle(new Request(`http://x${CM}?watch=true`, { headers: { Accept: `${PB};stream=watch` }, signal: ac.signal }));
    expect(w.status).toBe(200);
    expect(w.headers.get('Content-Type')).toBe(`${PB};stream=watch`);
    ac.abort();
    const g = await c.raw('GET', CM, undefined, { Accept: `${PB};stream=watch` });
    expect(g.headers.get('Content-Type')).toBe(PB);
    const y = await c.raw('GET', CM, undefined, { Accept: 'application/yaml;stream=watch, application/json' });
    expect(y.headers.get('Content-Type')).toBe('application/json');
  });

  it('the spec spelling application/vnd.svc.protobuf is accepted and mirrored', async () => {
    const r = await c.raw('GET', '/api/v1/namespaces/default', undefined, { Accept: 'application/vnd.svc.protobuf' });
    expect(r.status).toBe(200);
    expect(r.headers.get('Content-Type')).toBe('application/vnd.svc.protobuf');
    expect(decoded(await bytesOf(r))).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
    const body = encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'svc-alias' } });
    const created = await c.raw('POST', CM, body, { 'Content-Type': 'application/vnd.svc.protobuf' });
    expect(created.status).toBe(201);
  });

  it('PartialObjectMetadata in protobuf', async () => {
    await c.req('POST', CM, { metadata: { name: 'pom', labels: { a: 'b' } } });
    const r = await c.raw('GET', CM, undefined, { Accept: `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1` });
    expect(r.headers.get('Content-Type')).toBe(`${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`);
    const list = decoded(await bytesOf(r)) as { kind: string; items: Array<{ metadata: { name: string; labels?: object } }> };
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.items.find((i) => i.metadata.name === 'pom')!.metadata.labels).toEqual({ a: 'b' });
  });

  it('bad protobuf bodies: 400 on create, nothing written', async () => {
    const before = (await c.req('GET', CM)).body.items.length;
    const good = encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' } });
    const cases: Array<[Uint8Array, string]> = [
      [good.slice(0, good.length - 9), 'the object provided is unrecognized (must be of type ConfigMap): unexpected EOF'],
      [new Uint8Array([1, 2, 3, 4, 5]), 'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]'],
      [encodeProtobufObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bad' } }), 'no kind "Secret"'],
    ];
    for (const [body, msg] of cases) {
      const raw = await c.raw('POST', CM, body, { 'Content-Type': PB });
      const st = JSON.parse(await raw.text());
      expect(raw.status).toBe(400);
      expect(st.reason).toBe('BadRequest');
      expect(st.message).toContain(msg);
    }
    expect((await c.req('GET', CM)).body.items.length).toBe(before);
  });

  it('custom resources have no protobuf form: protobuf alone is a 406, a list of types falls back to JSON', async () => {
    const crd = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: 'gadgets.pb.example.com' },
      spec: {
        group: 'pb.example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    expect(crd.status).toBe(201);
    await c.settle();
    const G = '/apis/pb.example.com/v1/namespaces/default/gadgets';
    expect((await c.req('POST', G, { apiVersion: 'pb.example.com/v1', kind: 'Gadget', metadata: { name: 'g' } })).status).toBe(201);
    const r = await c.raw('GET', `${G}/g`, undefined, { Accept: PB });
    expect(r.status).toBe(406);
    // the error itself is a Status, which has a protobuf form (ErrorNegotiated)
    expect(r.headers.get('Content-Type')).toBe(PB);
    expect(decoded(await bytesOf(r)).message).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    const f = await c.raw('GET', `${G}/g`, undefined, { Accept: `${PB},application/json` });
    expect(f.headers.get('Content-Type')).toBe('application/json');
    // metadata-only views are meta types, which have a protobuf form
    const m = await c.raw('GET', G, undefined, { Accept: `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1` });
    expect(m.status).toBe(200);
    expect(decoded(await bytesOf(m))).toMatchObject({ kind: 'PartialObjectMetadataList', items: [{ metadata: { name: 'g' } }] });
  });
});

describe('protobuf DeleteOptions and subresource bodies', () => {
  const CM = '/api/v1/namespaces/default/configmaps';
  const deleteOptions = (o: Record<string, unknown>, apiVersion = 'v1') => encodeProtobufObject({ apiVersion, kind: 'DeleteOptions', ...o });

  it('DELETE with a protobuf DeleteOptions body (as kubectl drain sends) honours its options', async () => {
    await c.req('POST', CM, { metadata: { name: 'd1' } });
    const uid = (await c.req('GET', `${CM}/d1`)).body.metadata.uid;
    // a uid precondition that does not match: 409, nothing deleted
    const miss = await c.raw('DELETE', `${CM}/d1`, deleteOptions({ preconditions: { uid: 'other' } }), { 'Content-Type': PB });
    expect(miss.status).toBe(409);
    expect((await c.req('GET', `${CM}/d1`)).status).toBe(200);
    // dry run: nothing deleted
    const dry = await c.raw('DELETE', `${CM}/d1`, deleteOptions({ dryRun: ['All'] }, 'meta.k8s.io/v1'), { 'Content-Type': PB });
    expect(dry.status).toBe(200);
    expect((await c.req('GET', `${CM}/d1`)).status).toBe(200);
    const ok = await c.raw('DELETE', `${CM}/d1`, deleteOptions({ gracePeriodSeconds: 0, preconditions: { uid }, propagationPolicy: 'Background' }), { 'Content-Type': PB, Accept: PB });
    expect(ok.status).toBe(200);
    expect(decoded(await bytesOf(ok))).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'd1', kind: 'configmaps', uid } });
    expect((await c.req('GET', `${CM}/d1`)).status).toBe(404);
  });

  it('DeleteOptions are validated as from JSON (422), and an undecodable body is the handler\'s 500', async () => {
    await c.req('POST', CM, { metadata: { name: 'd2' } });
    const r = await c.raw('DELETE', `${CM}/d2`, deleteOptions({ propagationPolicy: 'Sideways' }), { 'Content-Type': PB });
    expect(r.status).toBe(422);
    expect(JSON.parse(await r.text()).message).toContain('propagationPolicy: Unsupported value: "Sideways"');
    const cut = deleteOptions({ gracePeriodSeconds: 5 });
    const e = await c.raw('DELETE', `${CM}/d2`, cut.slice(0, cut.length - 6), { 'Content-Type': PB });
    expect(e.status).toBe(500);
    expect(JSON.parse(await e.text())).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'unexpected EOF', code: 500 });
    expect((await c.req('GET', `${CM}/d2`)).status).toBe(200);
  });

  it('deletecollection takes protobuf DeleteOptions; the status subresource a protobuf object', async () => {
    const NS = '/api/v1/namespaces/dc-pb';
    expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'dc-pb' } })).status).toBe(201);
    for (const n of ['a', 'b']) await c.req('POST', `${NS}/configmaps`, { metadata: { name: n, labels: { x: n } } });
    const dry = await c.raw('DELETE', `${NS}/configmaps?labelSelector=x%3Da`, deleteOptions({ dryRun: ['All'] }), { 'Content-Type': PB });
    expect(dry.status).toBe(200);
    expect((await c.req('GET', `${NS}/configmaps?labelSelector=x`)).body.items).toHaveLength(2);
    const del = await c.raw('DELETE', `${NS}/configmaps?labelSelector=x%3Da`, deleteOptions({ propagationPolicy: 'Background' }), { 'Content-Type': PB, Accept: PB });
    expect(del.status).toBe(200);
    expect(decoded(await bytesOf(del))).toMatchObject({ kind: 'ConfigMapList', items: [{ metadata: { name: 'a' } }] });
    expect((await c.req('GET', `${NS}/configmaps?labelSelector=x`)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['b']);
    // status of a namespace written in protobuf
    const ns = (await c.req('GET', NS)).body;
    const put = await c.raw('PUT', `${NS}/status`, encodeProtobufObject({ ...ns, status: { phase: 'Active', conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'Fine', message: 'ok' }] } }), { 'Content-Type': PB, Accept: PB });
    expect(put.status).toBe(200);
    expect(decoded(await bytesOf(put))).toMatchObject({ kind: 'Namespace', status: { conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', reason: 'Fine' }] } });
  });

  it('the scale subresource takes an autoscaling/v1 Scale in protobuf', async () => {
    const D = '/apis/apps/v1/namespaces/default/deployments';
    const dep = sampleObject(builtinResources.find((d) => d.kind === 'Deployment')!, 'sc', 'default')!;
    expect((await c.req('POST', D, dep)).status).toBe(201);
    const s = await c.raw('GET', `${D}/sc/scale`, undefined, { Accept: PB });
    const scale = decoded(await bytesOf(s)) as { kind: string; spec: { replicas: number } };
    expect(scale.kind).toBe('Scale');
    const put = await c.raw('PUT', `${D}/sc/scale`, encodeProtobufObject({ ...scale, spec: { replicas: 4 } }), { 'Content-Type': PB, Accept: PB });
    expect(put.status).toBe(200);
    expect(decoded(await bytesOf(put))).toMatchObject({ kind: 'Scale', spec: { replicas: 4 } });
    expect((await c.req('GET', `${D}/sc`)).body.spec.replicas).toBe(4);
  });

  it('a raw message (no envelope) is refused', () => {
    expect(() => decodeProtobufObject(encodeProtobufMessage('core/v1.ConfigMap', { metadata: { name: 'x' } }), { expectKind: 'ConfigMap' })).toThrow(/expected prefix/);
  });
});

describe('CBOR request bodies behind CBORServingAndStorage', () => {
  it('create and apply in CBOR with the gate on; 415 with the gate off', async () => {
    const on = await testClient(createMemoryStorage(), { featureGates: { CBORServingAndStorage: true }, defaultObjects: false });
    const CM = '/api/v1/namespaces/default/configmaps';
    const body = encodeCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { a: '1' } });
    const r = await on.raw('POST', CM, body, { 'Content-Type': 'application/cbor' });
    expect(r.status).toBe(201);
    expect((await on.req('GET', `${CM}/c1`)).body.data).toEqual({ a: '1' });
    const apply = await on.raw('PATCH', `${CM}/c2?fieldManager=m`, encodeCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c2' }, data: { b: '2' } }), { 'Content-Type': 'application/apply-patch+cbor' });
    expect(apply.status).toBe(201);
    expect((await on.req('GET', `${CM}/c2`)).body.data).toEqual({ b: '2' });
    // duplicate keys and too deep a value are refused, nothing written
    const dup = new Uint8Array([0xa2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02]);
    const dr = await on.raw('POST', CM, dup, { 'Content-Type': 'application/cbor' });
    expect(dr.status).toBe(400);
    expect(JSON.parse(await dr.text()).message).toContain('found duplicate map key "a"');
    const deep = new Uint8Array([...new Array(100).fill(0x81), 0x01]);
    const de = await on.raw('POST', CM, deep, { 'Content-Type': 'application/cbor' });
    expect(de.status).toBe(400);
    expect(JSON.parse(await de.text()).message).toContain('exceeded max nested level 64');
    // errors in CBOR when CBOR is what the client takes; a Table is never CBOR (JSON or YAML only)
    const missing = await on.raw('GET', `${CM}/missing`, undefined, { Accept: 'application/cbor' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('Content-Type')).toBe('application/cbor');
    const mb = new Uint8Array(await missing.arrayBuffer());
    expect([...mb.slice(0, 3)]).toEqual([0xd9, 0xd9, 0xf7]);
    expect(decodeCbor(mb)).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound', message: 'configmaps "missing" not found' });
    const table = await on.req('GET', CM, undefined, { Accept: 'application/cbor;as=Table;g=meta.k8s.io;v=v1' });
    expect(table.status).toBe(406);
    expect(table.body.message).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor');
    const off = await c.raw('POST', CM, body, { 'Content-Type': 'application/cbor' });
    expect(off.status).toBe(415);
    expect(JSON.parse(await off.text()).message).toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    await on.server.close();
  });
});
