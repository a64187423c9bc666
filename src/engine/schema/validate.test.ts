import { describe, expect, it } from 'vitest';
import { fieldErrorString } from '../errors.js';
import { builtinDefinitions as defs } from '../resources/index.js';
import { checkRequired, checkTypes, goTypeName } from './validate.js';

const deploymentKind = { group: 'apps', version: 'v1', kind: 'Deployment' };
const dep = { $ref: 'io.k8s.api.apps.v1.Deployment' };
const podKind = { group: '', version: 'v1', kind: 'Pod' };
const pod = { $ref: 'io.k8s.api.core.v1.Pod' };

const message = (obj: unknown, schema = dep, kind = deploymentKind) => checkTypes(obj, schema, defs, kind)?.status.message;

describe('checkTypes', () => {
  it('reports a wrong scalar type as the Go decoder does', () => {
    const e = checkTypes({ spec: { replicas: '3' } }, dep, defs, deploymentKind);
    expect(e?.status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
      reason: 'BadRequest', code: 400,
    });
  });

  it('names nested struct fields with the full path and no indexes', () => {
    expect(message({ spec: { template: { spec: { containers: [{ name: 'a', ports: [{ containerPort: '80' }] }] } } } })).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
    );
    expect(message({ spec: { template: { spec: { containers: 'x' } } } })).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
    );
    expect(message({ metadata: { labels: { a: 1 } } })).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    );
    expect(message({ spec: 5 })).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field Deployment.spec of type v1.DeploymentSpec',
    );
    expect(message({ spec: { replicas: 1.5 } })).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    expect(message({ spec: { paused: 'yes' } })).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool',
    );
  });

  it('accepts int-or-string, quantities, nulls and unknown fields', () => {
    expect(message({ spec: { replicas: null, strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } }, unknown: { x: 1 } } })).toBeUndefined();
    const p = { spec: { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: 1, memory: '128Mi' }, requests: { cpu: '0.5' } } }] } };
    expect(message(p, pod, podKind)).toBeUndefined();
    expect(message({ spec: { containers: [{ name: 'a', resources: { limits: { cpu: 'lots' } } }] } }, pod, podKind)).toBe(
      "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });

  it('checks base64 of Secret data', () => {
    const secret = { $ref: 'io.k8s.api.core.v1.Secret' };
    const kind = { group: '', version: 'v1', kind: 'Secret' };
    expect(message({ data: { a: 'aGVsbG8=' } }, secret, kind)).toBeUndefined();
    expect(message({ data: { a: 'not base64!' } }, secret, kind)).toBe('Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3');
  });

  it('Go type names', () => {
    expect(goTypeName({ $ref: 'io.k8s.api.core.v1.Container' }, defs)).toBe('v1.Container');
    expect(goTypeName({ type: 'array', items: { type: 'string' } }, defs)).toBe('[]string');
    expect(goTypeName({ type: 'object', additionalProperties: { type: 'string' } }, defs)).toBe('map[string]string');
  });
});

describe('checkRequired', () => {
  it('reports absent required fields with their paths', () => {
    const errs = checkRequired({ spec: { template: { spec: { containers: [{ image: 'x', ports: [{}] }] } } } }, dep, defs).map(fieldErrorString);
    expect(errs).toEqual(['spec.template.spec.containers[0].name: Required value']);
    const hpa = checkRequired({ spec: { scaleTargetRef: { kind: 'Deployment' } } }, { $ref: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler' }, defs).map(fieldErrorString);
    expect(hpa).toEqual(['spec.scaleTargetRef.name: Required value']);
  });
  it('ignores status and metadata', () => {
    expect(checkRequired({ metadata: {}, spec: { selector: {}, template: {} }, status: { conditions: [{}] } }, dep, defs)).toEqual([]);
  });
});
