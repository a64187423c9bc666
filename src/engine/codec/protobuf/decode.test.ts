import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StatusError } from '../../errors.js';
import { decodeProtobufObject, hasProtobufPrefix, goDuration, formatTime, base64, protobufKinds } from './decode.js';

// ---- a tiny protobuf writer for crafted bodies ----------------------------------------------------------
type Part = number[];
function varint(v: number | bigint): number[] {
  let n = BigInt.asUintN(64, BigInt(v));
  const out: number[] = [];
  while (n >= 0x80n) {
    out.push(Number(n & 0x7fn) | 0x80);
    n >>= 7n;
  }
  out.push(Number(n));
  return out;
}
const tag = (num: number, wire: number): number[] => varint(num * 8 + wire);
const bytesField = (num: number, b: number[] | Uint8Array): Part => [...tag(num, 2), ...varint(b.length), ...b];
const str = (num: number, s: string): Part => bytesField(num, [...new TextEncoder().encode(s)]);
const int = (num: number, v: number | bigint): Part => [...tag(num, 0), ...varint(v)];
const msg = (num: number, ...parts: Part[]): Part => bytesField(num, parts.flat());
const entry = (num: number, key: string, value: Part): Part => msg(num, str(1, key), value);
function envelope(apiVersion: string, kind: string, ...object: Part[]): Uint8Array {
  const typeMeta = msg(1, ...(apiVersion ? [str(1, apiVersion)] : []), ...(kind ? [str(2, kind)] : []));
  return new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...typeMeta, ...bytesField(2, object.flat()), ...str(3, ''), ...str(4, '')]);
}
function errorOf(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('no error');
}

// ---- bodies captured from kubectl 1.33 ------------------------------------------------------------------
interface Fixture {
  command: string;
  method: string;
  path: string;
  contentType: string;
  body: string;
  kubectlDryRunJson: Record<string, unknown> | null;
}
const fixtureDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const fixtures = readdirSync(fixtureDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(fixtureDir, f), 'utf8')) as Fixture] as const);
const bodyOf = (name: string): Uint8Array =>
  new Uint8Array(Buffer.from(fixtures.find(([n]) => n === name)![1].body, 'base64'));

describe('kubectl 1.33 protobuf bodies', () => {
  it('has the captured fixtures', () => {
    expect(fixtures.length).toBe(30);
    for (const [, fx] of fixtures) expect(fx.contentType).toBe('application/vnd.kubernetes.protobuf');
  });

  // The same command with --dry-run=client -o json prints encoding/json's form of the same Go object:
  // the decoded body must equal it byte for byte (apiVersion moved before kind).
  for (const [name, fx] of fixtures.filter(([, f]) => f.kubectlDryRunJson)) {
    it(`${name}: ${fx.command}`, () => {
      const { kind, apiVersion, ...rest } = fx.kubectlDryRunJson!;
      const got = decodeProtobufObject(new Uint8Array(Buffer.from(fx.body, 'base64')));
      expect(got.apiVersion).toBe(apiVersion);
      expect(got.kind).toBe(kind);
      expect(JSON.stringify(got.object)).toBe(JSON.stringify({ apiVersion, kind, ...rest }));
    });
  }

  it('create token (TokenRequest; kubectl has no dry-run for it)', () => {
    expect(decodeProtobufObject(bodyOf('token')).object).toStrictEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { creationTimestamp: null },
      spec: { audiences: ['a'], expirationSeconds: 3600, boundObjectRef: null },
      status: { token: '', expirationTimestamp: null },
    });
  });

  it('auth can-i (SelfSubjectAccessReview)', () => {
    expect(JSON.stringify(decodeProtobufObject(bodyOf('selfsubjectaccessreview')).object)).toBe(JSON.stringify({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
      status: { allowed: false },
    }));
  });

  it('secret and binary configmap data are base64', () => {
    expect(decodeProtobufObject(bodyOf('secret')).object.data).toStrictEqual({ k: 'dg==' });
    expect(decodeProtobufObject(bodyOf('configmap-binary')).object.binaryData).toStrictEqual({ 'bin.dat': 'AAH//mhlbGxv' });
  });
});

// ---- errors ---------------------------------------------------------------------------------------------
describe('errors', () => {
  it('a body without the prefix', () => {
    const body = new TextEncoder().encode('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}');
    const e = errorOf(() => decodeProtobufObject(body, { expectKind: 'ConfigMap', expectApiVersion: 'v1' }));
    expect(e.status).toStrictEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"apiVersion":"v1","kind":"Con ...)',
      reason: 'BadRequest', code: 400,
    });
    expect(errorOf(() => decodeProtobufObject(body)).status.message)
      .toBe('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
    expect(errorOf(() => decodeProtobufObject(new Uint8Array([0x6b, 0x38]))).status.message)
      .toBe('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  });

  it('empty data and an empty body', () => {
    expect(errorOf(() => decodeProtobufObject(new Uint8Array(0))).status.message).toBe('empty data');
    expect(errorOf(() => decodeProtobufObject(new Uint8Array([0x6b, 0x38, 0x73, 0x00]), { expectKind: 'Secret' })).status.message)
      .toBe('the object provided is unrecognized (must be of type Secret): empty body (6b387300)');
  });

  it('a truncated body fails in the envelope', () => {
    const full = bodyOf('configmap');
    const e = errorOf(() => decodeProtobufObject(full.subarray(0, full.length - 10), { expectKind: 'ConfigMap' }));
    expect(e.code).toBe(400);
    const head = Buffer.from(full.subarray(0, 30)).toString('hex');
    expect(e.status.message).toBe(`the object provided is unrecognized (must be of type ConfigMap): unexpected EOF (${head} ...)`);
  });

  it('a truncated object inside a complete envelope', () => {
    // metadata claims 10 bytes but only 2 follow
    const body = envelope('v1', 'ConfigMap', [...tag(1, 2), 10, ...str(1, '')]);
    expect(errorOf(() => decodeProtobufObject(body, { expectKind: 'ConfigMap' })).status.message)
      .toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF');
  });

  it('a wrong wire type names the Go field', () => {
    const body = envelope('v1', 'ConfigMap', int(1, 5));
    expect(errorOf(() => decodeProtobufObject(body, { expectKind: 'ConfigMap' })).status.message)
      .toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field ObjectMeta');
    const body2 = envelope('apps/v1', 'Deployment', msg(2, str(1, 'x')));
    expect(errorOf(() => decodeProtobufObject(body2)).status.message).toBe('proto: wrong wireType = 2 for field Replicas');
  });

  it('an illegal tag, an end group, an illegal wire type, an overflowing varint', () => {
    expect(errorOf(() => decodeProtobufObject(envelope('v1', 'ConfigMap', [0, 0]))).status.message)
      .toBe('proto: ConfigMap: illegal tag 0 (wire type 0)');
    expect(errorOf(() => decodeProtobufObject(envelope('v1', 'ConfigMap', tag(7, 4)))).status.message)
      .toBe('proto: ConfigMap: wiretype end group for non-group');
    expect(errorOf(() => decodeProtobufObject(envelope('v1', 'ConfigMap', tag(99, 7)))).status.message)
      .toBe('proto: illegal wireType 7');
    expect(errorOf(() => decodeProtobufObject(envelope('v1', 'ConfigMap', [...tag(99, 0), ...Array(10).fill(0xff), 1]))).status.message)
      .toBe('proto: integer overflow');
  });

  it('an unknown kind, and defaults from the endpoint for a missing kind or apiVersion', () => {
    expect(errorOf(() => decodeProtobufObject(envelope('v1', 'Foo'), { expectKind: 'ConfigMap' })).status.message)
      .toBe('Foo in version "v1" cannot be handled as a ConfigMap: no kind "Foo" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"');
    expect(decodeProtobufObject(envelope('', '', msg(1, str(1, 'x'))), { expectKind: 'ConfigMap', expectApiVersion: 'v1' }).object)
      .toStrictEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', creationTimestamp: null } });
    expect(errorOf(() => decodeProtobufObject(envelope('v1', ''))).status.message)
      .toBe(`Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"v1", Kind:""}'`);
  });
});

// ---- value mapping --------------------------------------------------------------------------------------
describe('JSON mapping', () => {
  it('Time keeps whole seconds, MicroTime microseconds; Go pointers keep zeros', () => {
    const body = envelope('coordination.k8s.io/v1', 'Lease',
      msg(1, str(1, 'l'), msg(8, int(1, 1700000000), int(2, 999999999))),
      msg(2, str(1, ''), int(2, 0), msg(3, int(1, 1700000000), int(2, 123456789)), int(5, 3)));
    expect(JSON.stringify(decodeProtobufObject(body).object)).toBe(JSON.stringify({
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
      metadata: { name: 'l', creationTimestamp: '2023-11-14T22:13:20Z' },
      spec: { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: '2023-11-14T22:13:20.123456Z', leaseTransitions: 3 },
    }));
  });

  it('an empty Time is null; an absent pointer Time is left out', () => {
    const body = envelope('v1', 'ConfigMap', msg(1, str(1, 'x'), msg(8)));
    expect(decodeProtobufObject(body).object).toStrictEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', creationTimestamp: null } });
  });

  it('IntOrString, Quantity, inline structs, nil slices without omitempty', () => {
    const container = msg(2, str(1, 'c'),
      msg(8, entry(1, 'cpu', msg(2, str(1, '500m'))), entry(1, 'memory', msg(2))),
      msg(10, msg(1, msg(2, str(1, '/healthz'), msg(2, int(1, 1), str(3, 'http')))), int(2, 3)),
      msg(11, msg(1, msg(3, msg(1, int(1, 0), int(2, 8080))))));
    const body = envelope('v1', 'Pod',
      msg(1, str(1, 'p')),
      msg(2, msg(1, str(1, 'v'), msg(2, msg(2))), container, int(25, -5)));
    expect(JSON.stringify(decodeProtobufObject(body).object)).toBe(JSON.stringify({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: 'p', creationTimestamp: null },
      spec: {
        volumes: [{ name: 'v', emptyDir: {} }],
        containers: [{
          name: 'c',
          resources: { limits: { cpu: '500m', memory: '0' } },
          livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 3 },
          readinessProbe: { tcpSocket: { port: 8080 } },
        }],
        priority: -5,
      },
      status: {},
    }));
    // absent non-pointer fields decode as Go zero values: ObjectMeta's zero Time is null, PodSpec.containers
    // (no omitempty) is a nil slice, PodStatus a struct
    expect(decodeProtobufObject(envelope('v1', 'Pod')).object)
      .toStrictEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { creationTimestamp: null }, spec: { containers: null }, status: {} });
  });

  it('packed and unpacked repeated numbers, int64 values, merged repeats of a message field', () => {
    const body = envelope('v1', 'Pod',
      msg(1, str(1, 'p'), entry(11, 'b', str(2, '2'))),
      msg(1, entry(11, 'a', str(2, '1')), entry(11, '__proto__', str(2, 'z'))),
      msg(2, msg(14, int(4, 1), bytesField(4, [...varint(2), ...varint(2 ** 40)]), int(2, 2 ** 40 + 1))));
    const o = decodeProtobufObject(body).object;
    expect(JSON.stringify(o.metadata)).toBe('{"name":"p","creationTimestamp":null,"labels":{"__proto__":"z","a":"1","b":"2"}}');
    expect(Object.getPrototypeOf((o.metadata as { labels: object }).labels)).toBe(Object.prototype);
    expect(o.spec).toStrictEqual({ containers: null, securityContext: { runAsUser: 2 ** 40 + 1, supplementalGroups: [1, 2, 2 ** 40] } });
  });

  it('unknown fields (varint, fixed, bytes, groups) are skipped', () => {
    const body = envelope('v1', 'ConfigMap',
      int(50, 7), [...tag(51, 1), 1, 2, 3, 4, 5, 6, 7, 8], [...tag(52, 5), 1, 2, 3, 4], str(53, 'x'),
      [...tag(54, 3), ...int(1, 1), ...tag(2, 3), ...tag(2, 4), ...tag(54, 4)],
      msg(1, str(1, 'c'), int(99, 1)), entry(2, 'k', str(2, 'v')));
    expect(decodeProtobufObject(body).object).toStrictEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', creationTimestamp: null }, data: { k: 'v' } });
  });

  it('RawExtension and FieldsV1 carry JSON; int64 revision', () => {
    const fields = '{"f:data":{".":{},"f:a":{}}}';
    const body = envelope('apps/v1', 'ControllerRevision',
      msg(1, str(1, 'r'), msg(17, str(1, 'kubectl'), str(2, 'Update'), str(3, 'apps/v1'), msg(4, int(1, 0)), str(6, 'FieldsV1'), msg(7, str(1, fields)))),
      msg(2, str(1, '{"spec":{"replicas":2}}')),
      int(3, 2 ** 40));
    expect(JSON.stringify(decodeProtobufObject(body).object)).toBe(JSON.stringify({
      apiVersion: 'apps/v1', kind: 'ControllerRevision',
      metadata: {
        name: 'r',
        creationTimestamp: null,
        managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', time: '1970-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: JSON.parse(fields) }],
      },
      data: { spec: { replicas: 2 } },
      revision: 2 ** 40,
    }));
    // no raw: null (RawExtension is a struct, so omitempty keeps it)
    expect(decodeProtobufObject(envelope('apps/v1', 'ControllerRevision', msg(2), int(3, 0))).object)
      .toStrictEqual({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { creationTimestamp: null }, data: null, revision: 0 });
    expect(errorOf(() => decodeProtobufObject(envelope('apps/v1', 'ControllerRevision', msg(2, str(1, '{x')))))).toBeInstanceOf(StatusError);
  });

  it('bytes map values and Go named slices (ExtraValue; an empty map value is [], as gogo makes it)', () => {
    const secret = envelope('v1', 'Secret', entry(2, 'a', bytesField(2, [0xff, 0x00, 0x10])), entry(2, 'empty', []), str(3, 'Opaque'));
    expect(decodeProtobufObject(secret).object).toStrictEqual({
      apiVersion: 'v1', kind: 'Secret', metadata: { creationTimestamp: null }, data: { a: '/wAQ', empty: '' }, type: 'Opaque',
    });
    const sar = envelope('authorization.k8s.io/v1', 'SubjectAccessReview',
      msg(2, str(3, 'u'), entry(5, 'scopes', msg(2, str(1, 'x'), str(1, 'y'))), entry(5, 'none', msg(2))));
    expect(JSON.stringify(decodeProtobufObject(sar).object)).toBe(JSON.stringify({
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: { user: 'u', extra: { none: [], scopes: ['x', 'y'] } },
      status: { allowed: false },
    }));
  });

  it('DeleteOptions in any served group version', () => {
    const body = envelope('apps/v1', 'DeleteOptions', int(1, 0), msg(2, str(1, 'uid-1')), str(4, 'Foreground'), str(5, 'All'));
    expect(JSON.stringify(decodeProtobufObject(body).object)).toBe(JSON.stringify({
      apiVersion: 'apps/v1', kind: 'DeleteOptions',
      gracePeriodSeconds: 0, preconditions: { uid: 'uid-1' }, propagationPolicy: 'Foreground', dryRun: ['All'],
    }));
    expect(decodeProtobufObject(envelope('meta.k8s.io/v1', 'DeleteOptions')).object).toStrictEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' });
    expect(errorOf(() => decodeProtobufObject(envelope('nope/v1', 'DeleteOptions'))).status.message)
      .toBe('no kind "DeleteOptions" is registered for version "nope/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"');
  });

  it('without omitempty a zero scalar is written; with it, dropped', () => {
    // ServicePort.port has no omitempty, nodePort has; IntOrString targetPort is a struct (kept as 0)
    const body = envelope('v1', 'Service', msg(2, msg(1, str(1, ''), int(3, 0), msg(4), int(5, 0))));
    expect(decodeProtobufObject(body).object.spec).toStrictEqual({ ports: [{ port: 0, targetPort: 0 }] });
  });
});

describe('helpers', () => {
  it('hasProtobufPrefix', () => {
    expect(hasProtobufPrefix(new Uint8Array([0x6b, 0x38, 0x73, 0x00, 1]))).toBe(true);
    expect(hasProtobufPrefix(new Uint8Array([0x6b, 0x38, 0x73]))).toBe(false);
    expect(hasProtobufPrefix(new TextEncoder().encode('{}'))).toBe(false);
  });

  it('goDuration prints like time.Duration.String', () => {
    expect(goDuration(0n)).toBe('0s');
    expect(goDuration(1n)).toBe('1ns');
    expect(goDuration(1500n)).toBe('1.5µs');
    expect(goDuration(1500000n)).toBe('1.5ms');
    expect(goDuration(1000000000n)).toBe('1s');
    expect(goDuration(90500000000n)).toBe('1m30.5s');
    expect(goDuration(3600000000000n)).toBe('1h0m0s');
    expect(goDuration(-2000000001n)).toBe('-2.000000001s');
  });

  it('formatTime', () => {
    expect(formatTime(0n, 0, false)).toBe('1970-01-01T00:00:00Z');
    expect(formatTime(-1n, 0, false)).toBe('1969-12-31T23:59:59Z');
    expect(formatTime(951782400n, 0, false)).toBe('2000-02-29T00:00:00Z');
    expect(formatTime(-62135596800n, 0, false)).toBeNull();
    expect(formatTime(1700000000n, 1999, true)).toBe('2023-11-14T22:13:20.000001Z');
    expect(formatTime(253402300799n, 0, false)).toBe('9999-12-31T23:59:59Z');
  });

  it('base64', () => {
    const enc = (a: number[]): string => base64(new Uint8Array(a));
    for (const a of [[], [1], [1, 2], [1, 2, 3], [255, 254, 253, 252], [0, 0, 0, 0, 0]]) {
      expect(enc(a)).toBe(Buffer.from(a).toString('base64'));
    }
  });

  it('tables cover the kinds kubectl create sends', () => {
    const kinds = protobufKinds();
    for (const k of ['v1/ConfigMap', 'v1/Secret', 'apps/v1/Deployment', 'batch/v1/CronJob', 'policy/v1/PodDisruptionBudget',
      'networking.k8s.io/v1/Ingress', 'scheduling.k8s.io/v1/PriorityClass', 'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
      'autoscaling/v2/HorizontalPodAutoscaler', 'events.k8s.io/v1/Event', 'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy']) {
      expect(kinds).toContain(k);
    }
    expect(kinds.some((k) => k.endsWith('List'))).toBe(false);
  });
});
