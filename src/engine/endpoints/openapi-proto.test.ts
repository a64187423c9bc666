// /openapi/v2 in protobuf: negotiated as kube-openapi does, and shaped as gnostic's OpenAPIv2 Document.
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { Reader } from '../codec/protobuf/reader.js';

/** Fields of one message: number -> raw payloads (length-delimited) or varints. */
function fields(b: Uint8Array): Map<number, Array<Uint8Array | number>> {
  const out = new Map<number, Array<Uint8Array | number>>();
  const r = new Reader(b);
  while (!r.done()) {
    const t = r.tag();
    const list = out.get(t.num) ?? [];
    if (t.wire === 2) list.push(r.bytes());
    else if (t.wire === 0) list.push(r.varint()[0]);
    else r.skip(t.wire);
    out.set(t.num, list);
  }
  return out;
}
const text = (b: Uint8Array | number | undefined) => new TextDecoder().decode(b as Uint8Array);
/** Named<T> pairs {1: name, 2: value} of a repeated field. */
function named(list: Array<Uint8Array | number> | undefined): Map<string, Uint8Array> {
  const m = new Map<string, Uint8Array>();
  for (const e of list ?? []) {
    const f = fields(e as Uint8Array);
    m.set(text(f.get(1)?.[0]), (f.get(2)?.[0] as Uint8Array) ?? new Uint8Array(0));
  }
  return m;
}

let c: TestClient;
beforeAll(async () => {
  c = await testClient(createMemoryStorage(), { defaultObjects: false });
});

describe('/openapi/v2 in protobuf', () => {
  const PROTO = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

  it('negotiates JSON and both protobuf spellings; nothing acceptable is a bare 406', async () => {
    for (const accept of ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', PROTO, `text/html, ${PROTO}`]) {
      const r = await c.raw('GET', '/openapi/v2', undefined, { Accept: accept });
      expect(r.status).toBe(200);
      expect(r.headers.get('Content-Type')).toBe(PROTO);
      expect(r.headers.get('Vary')).toBe('Accept');
    }
    for (const accept of ['', 'application/json', '*/*', `application/json, ${PROTO}`]) {
      const r = await c.raw('GET', '/openapi/v2', undefined, accept ? { Accept: accept } : {});
      expect(r.headers.get('Content-Type')).toBe('application/json');
      expect(((await r.json()) as { swagger: string }).swagger).toBe('2.0');
    }
    const n = await c.raw('GET', '/openapi/v2', undefined, { Accept: 'text/html' });
    expect(n.status).toBe(406);
    expect(await n.text()).toBe('');
  });

  it('is the JSON document as a gnostic Document: info, paths, definitions with their extensions', async () => {
    const json = (await c.req('GET', '/openapi/v2')).body;
    const r = await c.raw('GET', '/openapi/v2', undefined, { Accept: PROTO });
    const doc = fields(new Uint8Array(await r.arrayBuffer()));
    expect(text(doc.get(1)?.[0])).toBe('2.0');
    const info = fields(doc.get(2)![0] as Uint8Array);
    expect([text(info.get(1)?.[0]), text(info.get(2)?.[0])]).toEqual([json.info.title, json.info.version]);
    // Paths {2: NamedPathItem}, in the JSON's order
    const paths = named(fields(doc.get(8)![0] as Uint8Array).get(2));
    expect([...paths.keys()]).toEqual(Object.keys(json.paths));
    // Definitions {1: NamedSchema}
    const defs = named(fields(doc.get(9)![0] as Uint8Array).get(1));
    expect([...defs.keys()]).toEqual(Object.keys(json.definitions));
    const pod = fields(defs.get('io.k8s.api.core.v1.Pod')!);
    expect(text(pod.get(4)?.[0])).toBe(json.definitions['io.k8s.api.core.v1.Pod'].description);
    // type: TypeItem {1: ["object"]}; properties: Properties {1: NamedSchema}
    expect(text(fields(pod.get(22)![0] as Uint8Array).get(1)?.[0])).toBe('object');
    expect([...named(fields(pod.get(25)![0] as Uint8Array).get(1)).keys()]).toEqual(Object.keys(json.definitions['io.k8s.api.core.v1.Pod'].properties));
    // vendor extensions: NamedAny {1: name, 2: Any {2: yaml}}
    const ext = named(pod.get(31));
    const gvk = load(text(fields(ext.get('x-kubernetes-group-version-kind')!).get(2)?.[0]));
    expect(gvk).toEqual(json.definitions['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']);
    // a query parameter of an operation: ParametersItem {1: Parameter {2: NonBodyParameter {3: Query}}}
    const podsPath = Object.keys(json.paths).find((p) => p === '/api/v1/namespaces/{namespace}/pods')!;
    const get = fields(fields(paths.get(podsPath)!).get(2)![0] as Uint8Array);
    expect(text(get.get(5)?.[0])).toBe(json.paths[podsPath].get.operationId);
    const params = get.get(8)!.map((p) => fields(fields(fields(fields(p as Uint8Array).get(1)![0] as Uint8Array).get(2)![0] as Uint8Array).get(3)![0] as Uint8Array));
    expect(params.map((p) => text(p.get(4)?.[0]))).toEqual(json.paths[podsPath].get.parameters.map((p: { name: string }) => p.name));
    // security: [{BearerToken: []}] -> SecurityRequirement {1: NamedStringArray {BearerToken, {}}}
    expect([...named(fields(doc.get(12)![0] as Uint8Array).get(1)).keys()]).toEqual(['BearerToken']);
  });
});
