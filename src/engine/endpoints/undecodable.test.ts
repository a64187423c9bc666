// Bodies that cannot be decoded, over the whole catalog: a create or an update of every served kind answers
// the real 400, wrapped with the type the endpoint expects (handlers transformDecodeError: `the object
// provided is unrecognized (must be of type X): <decoder error> (<summary of the body>)`), for JSON, YAML
// and protobuf bodies; patches of every type and apply refuse such bodies with a 400 too; nothing changes.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from '../resources/index.js';
import { sampleObject } from '../resources/samples.js';
import type { ResourceDefinition } from '../registry/types.js';

const INTERPRET = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** Body, then the decoder's error and the body summary (raw when it starts with `{`, else hex), per media type. */
const CASES: { body: string; json: [string, string]; yaml: [string, string] }[] = [
  {
    body: '{',
    json: ["couldn't get version/kind; json parse error: unexpected end of JSON input", '{'],
    yaml: ["yaml: did not find expected ',' or '}'", '{'],
  },
  {
    body: '',
    json: ["couldn't get version/kind; json parse error: unexpected end of JSON input", '<empty>'],
    yaml: ['', ''], // an empty YAML body is null: an empty object (see below)
  },
  {
    body: '[]',
    json: [`couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${INTERPRET}`, '5b5d'],
    yaml: [`couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${INTERPRET}`, '5b5d'],
  },
  {
    body: '42',
    json: [`couldn't get version/kind; json parse error: json: cannot unmarshal number into Go value of type ${INTERPRET}`, '3432'],
    yaml: [`couldn't get version/kind; json parse error: json: cannot unmarshal number into Go value of type ${INTERPRET}`, '3432'],
  },
  {
    body: 'garbage here',
    json: ["couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value", '676172626167652068657265'],
    yaml: [`couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${INTERPRET}`, '676172626167652068657265'],
  },
  {
    body: '{"kind": 5, "apiVersion": "v1", "metadata": {"name": "x"}}',
    json: ["couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string", '{"kind": 5, "apiVersion": "v1" ...'],
    yaml: ["couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string", '{"kind": 5, "apiVersion": "v1" ...'],
  },
  {
    body: '{"metadata": {"name": "x"}} trailing',
    json: ["couldn't get version/kind; json parse error: invalid character 't' after top-level value", '{"metadata": {"name": "x"}} tr ...'],
    yaml: ['yaml: did not find expected <document start>', '{"metadata": {"name": "x"}} tr ...'],
  },
];

const custom = { group: 'undecodable.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, custom: true } as unknown as ResourceDefinition;
const kinds = [...builtinResources, custom];

function path(def: ResourceDefinition, name?: string): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return `${base}${def.namespaced ? '/namespaces/default' : ''}/${def.plural}${name ? `/${name}` : ''}`;
}

const id = (def: ResourceDefinition) => `${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}`;

let c: TestClient;
const names = new Map<ResourceDefinition, string>();

beforeAll(async () => {
  c = await testClient(createMemoryStorage());
  const crd = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    metadata: { name: 'widgets.undecodable.example.com' },
    spec: {
      group: 'undecodable.example.com', scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  });
  expect(crd.status).toBe(201);
  await c.env.advance(1000);
  for (const def of kinds) {
    // core and events.k8s.io Events share one store: names differ per group
    const name = `u-${def.version}-${(def.group || 'core').split('.')[0]}`;
    const body = sampleObject(def, name) ?? { apiVersion: `${def.group}/${def.version}`, kind: def.kind, metadata: { name } };
    const r = await c.req('POST', path(def), body);
    expect(r.status, r.text).toBe(201);
    names.set(def, r.body.metadata.name);
  }
});

async function unchanged(def: ResourceDefinition, before: string): Promise<void> {
  const r = await c.req('GET', path(def, names.get(def)));
  expect(r.body.metadata.resourceVersion).toBe(before);
}

describe('create and update with a body that cannot be decoded', () => {
  for (const def of kinds) {
    it(`${id(def)}: JSON and YAML bodies answer the real wrapped 400`, async () => {
      const name = names.get(def)!;
      const before = (await c.req('GET', path(def, name))).body.metadata.resourceVersion;
      for (const [method, url] of [['POST', path(def)], ['PUT', path(def, name)]]) {
        for (const media of ['json', 'yaml'] as const) {
          for (const cs of CASES) {
            const [inner, summary] = cs[media];
            if (!inner) continue;
            const r = await c.req(method, url, cs.body, { 'Content-Type': `application/${media}` });
            const message = `the object provided is unrecognized (must be of type ${def.kind}): ${inner} (${summary})`;
            expect(r.status, `${method} ${media} ${JSON.stringify(cs.body)}`).toBe(400);
            expect(r.body, `${method} ${media} ${JSON.stringify(cs.body)}`).toEqual({
              kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400,
            });
          }
        }
      }
      await unchanged(def, before);
    });

    it(`${id(def)}: protobuf bodies`, async () => {
      const name = names.get(def)!;
      for (const [method, url] of [['POST', path(def)], ['PUT', path(def, name)]]) {
        for (const [body, summary] of [['{"kind":"x"}', '{"kind":"x"}'], ['', '<empty>'], ['k8s', '6b3873']]) {
          const r = await c.req(method, url, body, { 'Content-Type': 'application/vnd.kubernetes.protobuf' });
          if ((def as { custom?: boolean }).custom) {
            // custom resources have no protobuf encoding: the media type itself is refused
            expect(r.status).toBe(415);
            continue;
          }
          expect(r.status, `${method} ${JSON.stringify(body)}: ${r.text}`).toBe(400);
          const inner = body === '' ? 'empty data' : 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]';
          expect(r.body.message).toBe(`the object provided is unrecognized (must be of type ${def.kind}): ${inner} (${summary})`);
        }
      }
    });

    it(`${id(def)}: patches of every type and apply refuse them with a 400`, async () => {
      const name = names.get(def)!;
      const before = (await c.req('GET', path(def, name))).body.metadata.resourceVersion;
      const types = ['application/merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml'];
      if (!(def as { custom?: boolean }).custom) types.push('application/strategic-merge-patch+json');
      for (const ct of types) {
        for (const body of ['{', 'garbage here', '42', '{"metadata": {"name": "x"}} trailing']) {
          const r = await c.req('PATCH', `${path(def, name)}?fieldManager=t`, body, { 'Content-Type': ct });
          expect(r.status, `${ct} ${JSON.stringify(body)}: ${r.text}`).toBe(400);
          expect(r.body.reason).toBe('BadRequest');
        }
      }
      await unchanged(def, before);
    });
  }

  it('a null body decodes into an empty object of the expected kind (Go leaves its target untouched)', async () => {
    for (const [body, ct] of [['null', 'application/json'], ['', 'application/yaml'], ['null', 'application/yaml']]) {
      const created = await c.req('POST', '/api/v1/namespaces', body, { 'Content-Type': ct });
      expect(created.status).toBe(422);
      expect(created.body.message).toBe('Namespace "" is invalid: metadata.name: Required value: name or generateName is required');
      const put = await c.req('PUT', '/api/v1/namespaces/default', body, { 'Content-Type': ct });
      expect(put.status).toBe(400);
      expect(put.body.message).toBe('the name of the object (default based on URL) was undeterminable: name must be provided');
    }
  });

  it('the issue example: an undecodable namespace', async () => {
    const r = await c.raw('POST', '/api/v1/namespaces', '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"x"}', { 'Content-Type': 'application/json' });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toBe(
      `the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Nam ...)`,
    );
  });
});
