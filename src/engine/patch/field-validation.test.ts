// End-to-end use of the patch decoders, patch functions and field validation together, checked against
// the v1.33 expectations of test/integration/apiserver/field_validation_test.go.
import { describe, expect, it } from 'vitest';
import { builtins } from '../resources/generated/builtins.js';
import { decodeJsonPatchBody, applyJsonPatch } from './json-patch.js';
import { decodeMergePatchBody, applyMergePatch } from './merge-patch.js';
import { decodeStrategicPatchBody, applyStrategicMergePatch } from './strategic.js';
import { findUnknownFields, fieldValidationResult } from '../schema/prune.js';
import { StatusError } from '../errors.js';
import type { Schema } from '../schema/types.js';

const defs = builtins.definitions;
const deployment = defs['io.k8s.api.apps.v1.Deployment'];
const live = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'test-deployment', namespace: 'default', labels: { app: 'nginx' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'nginx' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:latest', imagePullPolicy: 'Always' }] } },
  },
};
const ctx = (patchType: 'json' | 'merge' | 'strategic') => ({ kind: 'Deployment', version: 'v1', operation: 'patch' as const, patchType });

function strictMessage(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) {
      expect(e.status.code).toBe(422);
      return e.message;
    }
    throw e;
  }
  throw new Error('expected a Strict error');
}

const mergePatchBody = `
{
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"paused": true,
		"paused": false,
		"template": {
			"spec": {
				"containers": [{
					"name": "nginx",
					"image": "nginx:latest",
					"unknownNested": "val1",
					"imagePullPolicy": "Always",
					"imagePullPolicy": "Never"
				}]
			}
		}
	}
}`;

describe('field validation of patches (built-in kinds)', () => {
  it('merge patch', () => {
    const dec = decodeMergePatchBody(mergePatchBody, 'Strict');
    const patched = applyMergePatch(live, dec.value);
    const unknown = findUnknownFields(patched, deployment, defs, { sortKeys: true });
    expect(strictMessage(() => fieldValidationResult(unknown, dec, 'Strict', { ...ctx('merge'), patchedObject: patched }))).toMatch(
      /strict decoding error: duplicate field "spec.unknownDupe", duplicate field "spec.paused", duplicate field "spec.template.spec.containers\[0\].imagePullPolicy", unknown field "spec.template.spec.containers\[0\].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe"$/,
    );
  });
  it('strategic merge patch', () => {
    const dec = decodeStrategicPatchBody(mergePatchBody, 'Warn');
    const patched = applyStrategicMergePatch(live, dec.value, deployment, defs);
    const unknown = findUnknownFields(patched, deployment, defs, { sortKeys: true });
    expect(fieldValidationResult(unknown, dec, 'Warn', { ...ctx('strategic'), patchDocument: dec.value }).warnings).toEqual([
      'duplicate field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ]);
  });
  it('json patch', () => {
    const body = `
			[
				{"op": "add", "path": "/spec/unknown1", "value": "val1", "foo":"bar"},
				{"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val1"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe2"},
				{"op": "add", "path": "/spec/paused", "value": true},
				{"op": "add", "path": "/spec/paused", "value": false},
				{"op": "add", "path": "/spec/template/spec/containers/0/unknownNested", "value": "val1"},
				{"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Always"},
				{"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Never"}
			]
			`;
    const dec = decodeJsonPatchBody(body, 'Strict');
    const patched = applyJsonPatch(live, dec.patch);
    const unknown = findUnknownFields(patched, deployment, defs, { sortKeys: true });
    const c = { ...ctx('json'), patchErrors: dec.patchErrors, patchedObject: patched };
    expect(strictMessage(() => fieldValidationResult(unknown, [], 'Strict', c))).toMatch(
      /strict decoding error: json patch unknown field "\[0\].foo", json patch duplicate field "\[1\].path", unknown field "spec.template.spec.containers\[0\].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknown3", unknown field "spec.unknownDupe"$/,
    );
  });
});

describe('field validation of patches (custom resources)', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          knownField1: { type: 'string' },
          ports: {
            type: 'array',
            items: { type: 'object', properties: { containerPort: { type: 'integer' }, hostPort: { type: 'integer' }, name: { type: 'string' }, protocol: { type: 'string' } } },
          },
        },
      },
    },
  };
  const cr = { apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'x' }, spec: { ports: [{ name: 'x', containerPort: 80, protocol: 'TCP' }] } };
  const body = `
{
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
			}]
	}
}`;
  it('merge patch', () => {
    const dec = decodeMergePatchBody(body, 'Warn');
    const patched = applyMergePatch(cr, dec.value);
    const unknown = findUnknownFields(patched, schema, defs, { customResource: true });
    expect(fieldValidationResult(unknown, dec, 'Warn', { kind: 'Foo', version: 'v1', operation: 'patch', patchType: 'merge', customResource: true }).warnings).toEqual([
      'duplicate field "spec.unknownDupe"',
      'duplicate field "spec.knownField1"',
      'duplicate field "spec.ports[0].hostPort"',
      'unknown field "spec.ports[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ]);
  });
});
