import { describe, expect, it } from 'vitest';
import { builtins } from '../resources/generated/builtins.js';
import { decodeBody } from '../codec/decode.js';
import { findUnknownFields, pruneUnknownFields, fieldValidationResult, strictDecodingErrors } from './prune.js';
import type { Schema } from './types.js';
import { StatusError } from '../errors.js';

const defs = builtins.definitions;
const deployment = defs['io.k8s.api.apps.v1.Deployment'];

// Bodies of test/integration/apiserver/field_validation_test.go (v1.33)
const invalidBodyJSON = `
	{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "dupename",
			"name": "test",
			"labels": {"app": "nginx"},
			"unknownMeta": "metaVal"
		},
		"spec": {
			"unknown1": "val1",
			"unknownDupe": "valDupe",
			"unknownDupe": "valDupe2",
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"unknownNested": "val1",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}
		`;
const invalidBodyYAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: test
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;

const crdSchema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string' },
        knownField1: { type: 'string' },
        embeddedObj: {
          'x-kubernetes-embedded-resource': true,
          type: 'object',
          properties: { apiversion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } },
        },
        ports: {
          type: 'array',
          'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
          'x-kubernetes-list-type': 'map',
          items: {
            type: 'object',
            required: ['containerPort', 'protocol'],
            properties: {
              containerPort: { type: 'integer', format: 'int32' },
              hostIP: { type: 'string' },
              hostPort: { type: 'integer', format: 'int32' },
              name: { type: 'string' },
              protocol: { type: 'string' },
            },
          },
        },
      },
    },
  },
};
const schemalessSchema: Schema = clonePreserve(crdSchema);
function clonePreserve(s: Schema): Schema {
  const c = JSON.parse(JSON.stringify(s)) as Schema;
  c.properties!.spec['x-kubernetes-preserve-unknown-fields'] = true;
  return c;
}
const crdInvalidBody = `
{
	"apiVersion": "example.com/v1",
	"kind": "Foo",
	"metadata": {
		"name": "dupename",
		"name": "x",
		"unknownMeta": "metaVal",
		"resourceVersion": "1"
	},
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"knownField1": "val1",
		"knownField1": "val2",
			"ports": [{
				"name": "portName",
				"containerPort": 8080,
				"protocol": "TCP",
				"hostPort": 8081,
				"hostPort": 8082,
				"unknownNested": "val"
			}],
		"embeddedObj": {
			"apiVersion": "v1",
			"kind": "ConfigMap",
			"metadata": {
				"name": "my-cm",
				"namespace": "my-ns",
				"unknownEmbeddedMeta": "foo"
			}
		}
	}
}`;
const crdInvalidBodyYAML = `
apiVersion: "example.com/v1"
kind: "Foo"
metadata:
  name: dupename
  name: "x"
  resourceVersion: "1"
  unknownMeta: metaVal
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  knownField1: val1
  knownField1: val2
  ports:
  - name: portName
    containerPort: 8080
    protocol: TCP
    hostPort: 8081
    hostPort: 8082
    unknownNested: val
  embeddedObj:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: my-cm
      namespace: my-ns
      unknownEmbeddedMeta: foo`;

const deployCtx = { kind: 'Deployment', version: 'v1', operation: 'create' as const };
const fooCtx = { kind: 'Foo', version: 'v1', operation: 'create' as const, customResource: true };

function strictError(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a StatusError');
}

describe('findUnknownFields (built-in kinds)', () => {
  const cases: { name: string; obj: unknown; sortKeys?: boolean; want: string[] }[] = [
    { name: 'known only', obj: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a', labels: { x: 'y' } }, spec: { replicas: 1 } }, want: [] },
    { name: 'top level', obj: { foo: 1, spec: { bar: 2 } }, want: ['foo', 'spec.bar'] },
    { name: 'list items', obj: { spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'b', foo: 1, ports: [{ containerPort: 1, x: 2 }] }] } } } }, want: ['spec.template.spec.containers[1].foo', 'spec.template.spec.containers[1].ports[0].x'] },
    { name: 'unknown subtree not entered', obj: { spec: { foo: { bar: 1 } } }, want: ['spec.foo'] },
    { name: 'metadata fields', obj: { metadata: { name: 'a', nope: 1, ownerReferences: [{ uid: 'u', what: 1 }] } }, want: ['metadata.nope', 'metadata.ownerReferences[0].what'] },
    { name: 'additionalProperties maps accept any key', obj: { metadata: { labels: { 'any/key': 'v' }, annotations: { z: 'y' } } }, want: [] },
    { name: 'int-or-string and quantity are scalars', obj: { spec: { strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } } }, want: [] },
    { name: 'opaque FieldsV1 accepts anything', obj: { metadata: { managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': { 'f:x': {} } } }] } }, want: [] },
    { name: 'document order', obj: { spec: { zeta: 1, alpha: 2 } }, want: ['spec.zeta', 'spec.alpha'] },
    { name: 'sorted order', obj: { spec: { zeta: 1, template: { zz: 1 }, alpha: 2 } }, sortKeys: true, want: ['spec.alpha', 'spec.template.zz', 'spec.zeta'] },
    { name: 'null values are fine', obj: { spec: null, metadata: { labels: null } }, want: [] },
    { name: 'wrong JSON types are not unknown fields', obj: { spec: { replicas: { a: 1 }, selector: [{ x: 1 }], template: { spec: { containers: { name: 'x' } } } } }, want: [] },
    { name: 'case sensitive', obj: { spec: { Replicas: 1 } }, want: ['spec.Replicas'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(findUnknownFields(c.obj, deployment, defs, { sortKeys: c.sortKeys })).toEqual(c.want);
    });
  }
  it('RawExtension (ControllerRevision.data) is opaque', () => {
    const cr = defs['io.k8s.api.apps.v1.ControllerRevision'];
    expect(findUnknownFields({ data: { anything: { goes: 1 } }, revision: 1, nope: 1 }, cr, defs)).toEqual(['nope']);
  });
  it('empty structs (CustomResourceSubresourceStatus) have no known fields; JSON members are opaque', () => {
    const crd = defs['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'];
    const obj = {
      spec: {
        versions: [{
          name: 'v1',
          subresources: { status: { foo: 1 } },
          schema: { openAPIV3Schema: { type: 'object', default: { any: { thing: 1 } }, 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string', bogus: 1 } } },
        }],
      },
    };
    expect(findUnknownFields(obj, crd, defs)).toEqual([
      'spec.versions[0].subresources.status.foo',
    ]);
  });
  it('pruneUnknownFields drops them without touching the input', () => {
    const obj = { metadata: { name: 'a', nope: 1 }, spec: { replicas: 2, foo: { a: 1 } } };
    expect(pruneUnknownFields(obj, deployment, defs)).toEqual({ metadata: { name: 'a' }, spec: { replicas: 2 } });
    expect(obj.spec.foo).toEqual({ a: 1 });
  });
});

describe('findUnknownFields (custom resources)', () => {
  it('real order: root metadata, sorted pruned paths, embedded metadata', () => {
    const { value } = decodeBody(crdInvalidBody, 'json');
    expect(findUnknownFields(value, crdSchema, defs, { customResource: true })).toEqual([
      'metadata.unknownMeta', 'spec.ports[0].unknownNested', 'spec.unknown1', 'spec.unknownDupe',
      'spec.embeddedObj.metadata.unknownEmbeddedMeta',
    ]);
  });
  it('preserve-unknown-fields keeps unknown keys but still prunes inside known ones', () => {
    const { value } = decodeBody(crdInvalidBody, 'json');
    expect(findUnknownFields(value, schemalessSchema, defs, { customResource: true })).toEqual([
      'metadata.unknownMeta', 'spec.ports[0].unknownNested', 'spec.embeddedObj.metadata.unknownEmbeddedMeta',
    ]);
  });
  it('an object schema without properties prunes everything inside', () => {
    const s: Schema = { type: 'object', properties: { spec: { type: 'object' } } };
    expect(findUnknownFields({ spec: { a: 1, b: { c: 1 } }, status: {} }, s, defs, { customResource: true })).toEqual(['spec.a', 'spec.b', 'status']);
  });
  it('additionalProperties schema and apiVersion/kind at the root are known', () => {
    const s: Schema = { type: 'object', properties: { spec: { type: 'object', additionalProperties: { type: 'object', properties: { a: { type: 'string' } } } } } };
    expect(findUnknownFields({ apiVersion: 'x/v1', kind: 'K', spec: { k1: { a: 'x', b: 1 } } }, s, defs, { customResource: true })).toEqual(['spec.k1.b']);
  });
  it('nested apiVersion/kind/metadata are unknown unless embedded', () => {
    const s: Schema = { type: 'object', properties: { spec: { type: 'object', properties: {} } } };
    expect(findUnknownFields({ spec: { kind: 'x', metadata: {} } }, s, defs, { customResource: true })).toEqual(['spec.kind', 'spec.metadata']);
  });
  it('without ObjectMeta in the registry, a built-in list of its fields is used', () => {
    const obj = { metadata: { name: 'a', bogus: 1, managedFields: [{ manager: 'm', fieldsV1: { 'f:x': {} }, nope: 1 }], ownerReferences: [{ uid: 'u', x: 1 }] } };
    expect(findUnknownFields(obj, { type: 'object' }, {}, { customResource: true })).toEqual([
      'metadata.bogus', 'metadata.managedFields[0].nope', 'metadata.ownerReferences[0].x',
    ]);
  });
  it('pruneUnknownFields for custom resources', () => {
    const { value } = decodeBody(crdInvalidBody, 'json');
    const pruned = pruneUnknownFields(value, crdSchema, defs, { customResource: true }) as any;
    expect(pruned.metadata).toEqual({ name: 'x', resourceVersion: '1' });
    expect(pruned.spec).toEqual({
      knownField1: 'val2',
      ports: [{ name: 'portName', containerPort: 8080, protocol: 'TCP', hostPort: 8082 }],
      embeddedObj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'my-cm', namespace: 'my-ns' } },
    });
  });
});

describe('fieldValidationResult: the real v1.33 answers (field_validation_test.go)', () => {
  it('POST built-in JSON Strict: document order, duplicate of an unknown field reported once', () => {
    const dec = decodeBody(invalidBodyJSON, 'json');
    const unknown = findUnknownFields(dec.value, deployment, defs);
    const e = strictError(() => fieldValidationResult(unknown, dec, 'Strict', deployCtx));
    expect(e.status.code).toBe(400);
    expect(e.status.reason).toBe('BadRequest');
    expect(e.status.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "metadata.name", unknown field "metadata.unknownMeta", unknown field "spec.unknown1", unknown field "spec.unknownDupe", duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].unknownNested", duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    );
  });
  it('POST built-in JSON Warn and Ignore', () => {
    const dec = decodeBody(invalidBodyJSON, 'json');
    const unknown = findUnknownFields(dec.value, deployment, defs);
    expect(fieldValidationResult(unknown, dec, 'Warn', deployCtx).warnings).toEqual([
      'duplicate field "metadata.name"',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    ]);
    expect(fieldValidationResult(unknown, dec, 'Ignore', deployCtx).warnings).toEqual([]);
  });
  it('PUT built-in YAML Strict: yaml duplicates, then unknown fields in sorted order', () => {
    const dec = decodeBody(invalidBodyYAML, 'yaml');
    const unknown = findUnknownFields(dec.value, deployment, defs, { sortKeys: true });
    const e = strictError(() => fieldValidationResult(unknown, dec, 'Strict', { ...deployCtx, operation: 'update' }));
    expect(e.status.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 12: key "unknownDupe" already set in map\n  line 14: key "paused" already set in map\n  line 28: key "imagePullPolicy" already set in map, unknown field "metadata.unknownMeta", unknown field "spec.template.spec.containers[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe"',
    );
  });
  it('built-in YAML Warn splits the yaml error per line', () => {
    const dec = decodeBody(invalidBodyYAML, 'yaml');
    const unknown = findUnknownFields(dec.value, deployment, defs, { sortKeys: true });
    expect(fieldValidationResult(unknown, dec, 'Warn', deployCtx).warnings).toEqual([
      'line 5: key "name" already set in map',
      'line 12: key "unknownDupe" already set in map',
      'line 14: key "paused" already set in map',
      'line 28: key "imagePullPolicy" already set in map',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ]);
  });
  it('custom resource JSON: duplicates first (including unknown ones), then unknown fields', () => {
    const dec = decodeBody(crdInvalidBody, 'json');
    const unknown = findUnknownFields(dec.value, crdSchema, defs, { customResource: true });
    const e = strictError(() => fieldValidationResult(unknown, dec, 'Strict', fooCtx));
    expect(e.status.message).toBe(
      'Foo in version "v1" cannot be handled as a Foo: strict decoding error: duplicate field "metadata.name", duplicate field "spec.unknownDupe", duplicate field "spec.knownField1", duplicate field "spec.ports[0].hostPort", unknown field "metadata.unknownMeta", unknown field "spec.ports[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe", unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta"',
    );
  });
  it('custom resource YAML Warn', () => {
    const dec = decodeBody(crdInvalidBodyYAML, 'yaml');
    const unknown = findUnknownFields(dec.value, crdSchema, defs, { customResource: true });
    expect(fieldValidationResult(unknown, dec, 'Warn', fooCtx).warnings).toEqual([
      'line 6: key "name" already set in map',
      'line 12: key "unknownDupe" already set in map',
      'line 14: key "knownField1" already set in map',
      'line 20: key "hostPort" already set in map',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.ports[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta"',
    ]);
  });
  it('schemaless custom resource YAML Strict', () => {
    const dec = decodeBody(crdInvalidBodyYAML, 'yaml');
    const unknown = findUnknownFields(dec.value, schemalessSchema, defs, { customResource: true });
    const e = strictError(() => fieldValidationResult(unknown, dec, 'Strict', { ...fooCtx, operation: 'update' }));
    expect(e.status.message).toBe(
      'Foo in version "v1" cannot be handled as a Foo: strict decoding error: yaml: unmarshal errors:\n  line 6: key "name" already set in map\n  line 12: key "unknownDupe" already set in map\n  line 14: key "knownField1" already set in map\n  line 20: key "hostPort" already set in map, unknown field "metadata.unknownMeta", unknown field "spec.ports[0].unknownNested", unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta"',
    );
  });
  it('merge patch Strict: 422 with the patched object', () => {
    const patch = decodeBody('{"spec":{"paused":true,"paused":false,"foo":1}}', 'json', { interpretKind: false });
    const patched = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { paused: false, foo: 1, zz: '<a&b>' } };
    const unknown = findUnknownFields(patched, deployment, defs, { sortKeys: true });
    const e = strictError(() =>
      fieldValidationResult(unknown, patch, 'Strict', { kind: 'Deployment', version: 'v1', operation: 'patch', patchType: 'merge', patchedObject: patched }),
    );
    expect(e.status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: ' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"apps/v1\\",\\"kind\\":\\"Deployment\\",\\"spec\\":{\\"foo\\":1,\\"paused\\":false,\\"zz\\":\\"\\\\u003ca\\\\u0026b\\\\u003e\\"}}": strict decoding error: duplicate field "spec.paused", unknown field "spec.foo", unknown field "spec.zz"',
      reason: 'Invalid',
      details: { causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "{\\"apiVersion\\":\\"apps/v1\\",\\"kind\\":\\"Deployment\\",\\"spec\\":{\\"foo\\":1,\\"paused\\":false,\\"zz\\":\\"\\\\u003ca\\\\u0026b\\\\u003e\\"}}": strict decoding error: duplicate field "spec.paused", unknown field "spec.foo", unknown field "spec.zz"', field: 'patch' }] },
      code: 422,
    });
  });
  it('strategic merge patch Strict prints the patch as a Go map', () => {
    const patch = { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }], template: { spec: {} } } };
    const e = strictError(() =>
      fieldValidationResult(['spec.volumes'], [], 'Strict', { kind: 'Deployment', version: 'v1', operation: 'patch', patchType: 'strategic', patchDocument: patch }),
    );
    expect(e.status.message).toBe(' "" is invalid: patch: Invalid value: "map[spec:map[template:map[spec:map[]] volumes:[map[hostPath:map[path:/x] name:v]]]]": strict decoding error: unknown field "spec.volumes"');
  });
  it('json patch: patch document errors first', () => {
    expect(strictDecodingErrors(['spec.unknown1'], [], { kind: 'Deployment', version: 'v1', operation: 'patch', patchType: 'json', patchErrors: ['json patch unknown field "[0].foo"'] })).toEqual([
      'json patch unknown field "[0].foo"', 'unknown field "spec.unknown1"',
    ]);
  });
  it('interleaves by document position when a duplicate follows an unknown field', () => {
    const dec = decodeBody('{"spec":{"paused":true,"zzz":1,"paused":false},"aaa":1}', 'json');
    const unknown = findUnknownFields(dec.value, deployment, defs);
    expect(fieldValidationResult(unknown, dec, 'Warn', deployCtx).warnings).toEqual([
      'unknown field "spec.zzz"', 'duplicate field "spec.paused"', 'unknown field "aaa"',
    ]);
  });
  it('duplicates inside an unknown field are not reported for built-in kinds', () => {
    const dec = decodeBody('{"spec":{"foo":{"a":1,"a":2}},"metadata":{"labels":{"x":"1","x":"2"}}}', 'json');
    const unknown = findUnknownFields(dec.value, deployment, defs);
    expect(fieldValidationResult(unknown, dec, 'Warn', deployCtx).warnings).toEqual([
      'unknown field "spec.foo"', 'duplicate field "metadata.labels.x"',
    ]);
  });
  it('the duplicates array alone carries what ordering and YAML messages need', () => {
    const dec = decodeBody(invalidBodyJSON, 'json');
    const unknown = findUnknownFields(dec.value, deployment, defs);
    expect(fieldValidationResult(unknown, dec.duplicates, 'Warn', deployCtx)).toEqual(fieldValidationResult(unknown, dec, 'Warn', deployCtx));
    const y = decodeBody(invalidBodyYAML, 'yaml');
    expect(fieldValidationResult([], y.duplicates, 'Warn', deployCtx).warnings[0]).toBe('line 5: key "name" already set in map');
  });
  it('server-side apply: only the duplicates, in go-yaml words, even for a JSON body', () => {
    const applyInvalidBody = `{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "x",
			"labels": {"app": "nginx"}
		},
		"spec": {
			"paused": false,
			"paused": true,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"imagePullPolicy": "Never",
						"imagePullPolicy": "Always"
					}]
				}
			}
		}
	}`;
    const dec = decodeBody(applyInvalidBody, 'yaml');
    const ctx = { kind: 'Deployment', version: 'v1', operation: 'patch' as const, patchType: 'apply' as const };
    const e = strictError(() => fieldValidationResult(['spec.foo'], dec, 'Strict', ctx));
    expect(e.status.code).toBe(400);
    expect(e.message).toBe('error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 10: key "paused" already set in map\n  line 27: key "imagePullPolicy" already set in map');
    expect(fieldValidationResult(['spec.foo'], dec.duplicates, 'Warn', ctx).warnings).toEqual([
      'line 10: key "paused" already set in map', 'line 27: key "imagePullPolicy" already set in map',
    ]);
  });
  it('nothing to report gives no warnings even at Strict', () => {
    expect(fieldValidationResult([], [], 'Strict', deployCtx).warnings).toEqual([]);
  });
  it('body kind differs from the endpoint kind', () => {
    const e = strictError(() => fieldValidationResult(['spec.x'], [], 'Strict', { ...deployCtx, bodyKind: 'Foo', version: 'v1beta1' }));
    expect(e.status.message).toBe('Foo in version "v1beta1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.x"');
  });
});
