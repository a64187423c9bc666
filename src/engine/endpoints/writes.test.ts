// Writes over HTTP: PUT, PATCH (four types), server-side apply, managedFields, dry run, field validation and
// delete options, asserted on the wire with the exact Status bodies of the real v1.33 server.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const D = '/apis/apps/v1/namespaces/default/deployments';
const CM = '/api/v1/namespaces/default/configmaps';
const T0 = '2025-01-01T00:00:00Z';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const JSONP = { 'Content-Type': 'application/json-patch+json' };
const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

const dep = (name: string, replicas = 1, image = 'nginx:1') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
  },
});
const cm = (name: string, data: Record<string, string> = { a: '1' }, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data,
});

function status(code: number, reason: string | undefined, message: string, details?: Record<string, unknown>) {
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message,
    ...(reason ? { reason } : {}), ...(details ? { details } : {}), code,
  };
}

function invalidOptions(kind: string, causes: { reason: string; message: string; field: string }[]) {
  const msgs = causes.map((x) => `${x.field}: ${x.message}`);
  return status(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: ${msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`}`, {
    group: 'meta.k8s.io', kind, causes,
  });
}

const warnings = (h: Headers) => (h.get('warning') ?? '').split(/,\s*(?=299)/).filter(Boolean);
const mf = (o: any) => o.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.subresource ?? '', e.fieldsV1]);

describe('PUT', () => {
  it('stale resourceVersion: 409 Conflict with the real message', async () => {
    await c.req('POST', D, dep('web'));
    const r = await c.req('PUT', `${D}/web`, { ...dep('web', 2), metadata: { name: 'web', resourceVersion: '1' } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual(status(409, 'Conflict',
      'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      { name: 'web', group: 'apps', kind: 'deployments' }));
  });

  it('without resourceVersion the update is unconditional; the manager comes from the User-Agent', async () => {
    const created = await c.req('POST', CM, cm('c1'));
    const r = await c.req('PUT', `${CM}/c1`, cm('c1', { a: '2' }), { 'User-Agent': 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc' });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ a: '2' });
    expect(Number(r.body.metadata.resourceVersion)).toBe(Number(created.body.metadata.resourceVersion) + 1);
    expect(r.body.metadata.uid).toBe(created.body.metadata.uid);
    // the value change moves f:a; the creator keeps the map itself
    expect(mf(r.body)).toEqual([['kubectl', 'Update', '', { 'f:data': { 'f:a': {} } }], ['unknown', 'Update', '', { 'f:data': {} }]]);
  });

  it('the User-Agent manager drops unprintable characters and stops at 128 bytes', async () => {
    const r = await c.req('POST', CM, cm('ua'), { 'User-Agent': `my\ttool${'é'.repeat(70)}/1.0` });
    const m = r.body.metadata.managedFields[0].manager;
    expect(m).toBe(`mytool${'é'.repeat(61)}`);
    expect(new TextEncoder().encode(m).length).toBe(128);
  });

  it('with the current resourceVersion it succeeds; a no-op keeps the resourceVersion', async () => {
    const created = await c.req('POST', CM, cm('c1'));
    const same = await c.req('PUT', `${CM}/c1`, created.body);
    expect(same.status).toBe(200);
    expect(same.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
  });

  it('creates on update only where the kind allows it', async () => {
    const lease = await c.req('PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l1', {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l1' }, spec: { holderIdentity: 'a' },
    }, { 'User-Agent': 'leader/1.0' });
    expect(lease.status).toBe(201);
    expect(lease.body.spec).toEqual({ holderIdentity: 'a' });
    expect(mf(lease.body)).toEqual([['leader', 'Update', '', { 'f:spec': { 'f:holderIdentity': {} } }]]);
    const r = await c.req('PUT', `${CM}/nope`, cm('nope'));
    expect(r.status).toBe(404);
    expect(r.body).toEqual(status(404, 'NotFound', 'configmaps "nope" not found', { name: 'nope', kind: 'configmaps' }));
  });

  it('checks the name and namespace of the body against the URL', async () => {
    await c.req('POST', CM, cm('c1'));
    expect((await c.req('PUT', `${CM}/c1`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} })).body).toEqual(
      status(400, 'BadRequest', 'the name of the object (c1 based on URL) was undeterminable: name must be provided'));
    expect((await c.req('PUT', `${CM}/c1`, cm('c2'))).body).toEqual(
      status(400, 'BadRequest', 'the name of the object (c2) does not match the name on the URL (c1)'));
    expect((await c.req('PUT', `${CM}/c1`, cm('c1', {}, { namespace: 'kube-system' }))).body).toEqual(
      status(400, 'BadRequest', 'the namespace of the object (kube-system) does not match the namespace on the request (default)'));
  });

  it('a uid in the body is a precondition (StorageError conflict)', async () => {
    await c.req('POST', CM, cm('c1'));
    const r = await c.req('PUT', `${CM}/c1`, cm('c1', {}, { uid: 'abc' }));
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(
      /^Operation cannot be fulfilled on configmaps "c1": StorageError: invalid object, Code: 4, Key: \/registry\/configmaps\/default\/c1, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: abc, UID in object meta: [0-9a-f-]+$/,
    );
  });

  it('status and spec separation: the main resource ignores status, /status ignores everything else', async () => {
    await c.req('POST', D, dep('web'));
    const main = await c.req('PUT', `${D}/web`, { ...dep('web', 2), status: { replicas: 7 } });
    expect(main.status).toBe(200);
    expect(main.body.spec.replicas).toBe(2);
    expect(main.body.status).toEqual({});
    expect(main.body.metadata.generation).toBe(2);

    const st = await c.req('PUT', `${D}/web/status?fieldManager=ctrl`, { ...dep('web', 9), metadata: { name: 'web', labels: { x: 'y' } }, status: { replicas: 7 } });
    expect(st.status).toBe(200);
    expect(st.body.spec.replicas).toBe(2);
    expect(st.body.metadata.labels).toBeUndefined();
    expect(st.body.status).toEqual({ replicas: 7 });
    expect(st.body.metadata.generation).toBe(2);
    const entry = st.body.metadata.managedFields.find((e: any) => e.manager === 'ctrl');
    expect(entry).toEqual({
      manager: 'ctrl', operation: 'Update', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status',
    });
  });
});

describe('/scale', () => {
  for (const [plural, kind] of [['deployments', 'Deployment'], ['replicasets', 'ReplicaSet'], ['statefulsets', 'StatefulSet']]) {
    it(`GET, PUT and PATCH the autoscaling/v1 Scale of ${plural}`, async () => {
      const base = `/apis/apps/v1/namespaces/default/${plural}`;
      const body: any = { ...dep('web', 2), kind };
      if (kind === 'StatefulSet') body.spec.serviceName = 'web';
      if (kind === 'ReplicaSet') delete body.spec.strategy;
      const created = await c.req('POST', base, body);
      expect(created.status).toBe(201);
      const g = await c.req('GET', `${base}/web/scale`);
      expect(g.body).toEqual({
        kind: 'Scale', apiVersion: 'autoscaling/v1',
        metadata: { name: 'web', namespace: 'default', uid: created.body.metadata.uid, resourceVersion: created.body.metadata.resourceVersion, creationTimestamp: T0 },
        spec: { replicas: 2 },
        status: { replicas: 0, selector: 'app=web' },
      });
      const put = await c.req('PUT', `${base}/web/scale?fieldManager=hpa`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 5 } });
      expect(put.status).toBe(200);
      expect(put.body.spec).toEqual({ replicas: 5 });
      const p = await c.req('PATCH', `${base}/web/scale`, { spec: { replicas: 3 } }, { ...MERGE, 'User-Agent': 'kubectl/v1.33.0' });
      expect(p.status).toBe(200);
      expect(p.body.spec).toEqual({ replicas: 3 });
      const obj = (await c.req('GET', `${base}/web`)).body;
      expect(obj.spec.replicas).toBe(3);
      expect(obj.metadata.generation).toBe(3);
      const scaleEntry = obj.metadata.managedFields.find((e: any) => e.subresource === 'scale');
      expect(scaleEntry).toEqual({ manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' });
    });
  }

  it('Scale bodies are decoded and field-validated as autoscaling/v1 Scale', async () => {
    await c.req('POST', D, dep('web'));
    const w = await c.req('PUT', `${D}/web/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 2, foo: 1 } });
    expect(w.status).toBe(200);
    expect(warnings(w.headers)).toEqual(['299 - "unknown field \\"spec.foo\\""']);
    const t = await c.req('PUT', `${D}/web/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 'two' } });
    expect(t.body).toEqual(status(400, 'BadRequest', 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32'));
    const p = await c.req('PATCH', `${D}/web/scale`, { spec: { replicas: 'two' } }, SMP);
    expect(p.body.message).toBe(' "" is invalid: patch: Invalid value: "map[spec:map[replicas:two]]": cannot convert string to int32');
    const k = await c.req('PUT', `${D}/web/scale`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } });
    expect(k.status).toBe(400);
  });

  it('server-side apply through /scale: conflicts name the Scale entries; force moves replicas to the applier', async () => {
    await c.req('POST', `${D}?fieldManager=me`, dep('web', 2));
    const scale = (n: number) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: n } });
    const conflict = await c.req('PATCH', `${D}/web/scale?fieldManager=hpa`, scale(5), APPLY);
    expect(conflict.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "me" using autoscaling/v1: .spec.replicas', reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "me" using autoscaling/v1', field: '.spec.replicas' }] }, code: 409,
    });
    const shared = await c.req('PATCH', `${D}/web/scale?fieldManager=hpa`, scale(2), APPLY);
    expect(shared.status).toBe(200);
    let d = (await c.req('GET', `${D}/web`)).body;
    expect(d.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.subresource ?? '', e.time ?? null, !!e.fieldsV1['f:spec']['f:replicas']])).toEqual([
      ['hpa', 'Apply', 'scale', null, true],
      ['me', 'Update', '', T0, true],
    ]);
    const forced = await c.req('PATCH', `${D}/web/scale?fieldManager=hpa&force=true`, scale(5), APPLY);
    expect(forced.body.spec).toEqual({ replicas: 5 });
    d = (await c.req('GET', `${D}/web`)).body;
    expect(d.spec.replicas).toBe(5);
    expect(d.metadata.managedFields[0]).toEqual({ manager: 'hpa', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' });
    expect(d.metadata.managedFields[1].fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    expect(d.metadata.managedFields[1].fieldsV1['f:spec']['f:selector']).toEqual({});
  });

  it('negative replicas: 422 on Scale.autoscaling; stale resourceVersion: 409', async () => {
    await c.req('POST', D, dep('web'));
    const r = await c.req('PATCH', `${D}/web/scale`, { spec: { replicas: -1 } }, MERGE);
    expect(r.body).toEqual(status(422, 'Invalid', 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0', {
      name: 'web', group: 'autoscaling', kind: 'Scale',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' }],
    }));
    const s = await c.req('PUT', `${D}/web/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', resourceVersion: '1' }, spec: { replicas: 2 } });
    expect(s.status).toBe(409);
    expect(s.body.message).toBe('Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again');
  });
});

describe('PATCH', () => {
  beforeEach(async () => {
    await c.req('POST', `${D}?fieldManager=me`, dep('web'));
  });

  it('415 for an unknown Content-Type, listing the accepted patch types', async () => {
    const r = await c.req('PATCH', `${D}/web`, {}, { 'Content-Type': 'application/json' });
    expect(r.body).toEqual(status(415, 'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml'));
  });

  it('JSON patch, merge patch and strategic merge patch', async () => {
    const j = await c.req('PATCH', `${D}/web`, [{ op: 'replace', path: '/spec/replicas', value: 4 }], JSONP);
    expect(j.status).toBe(200);
    expect(j.body.spec.replicas).toBe(4);
    const m = await c.req('PATCH', `${D}/web`, { metadata: { labels: { tier: 'web' } } }, MERGE);
    expect(m.body.metadata.labels).toEqual({ tier: 'web' });
    const s = await c.req('PATCH', `${D}/web`, { spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox' }] } } } }, SMP);
    expect(s.body.spec.template.spec.containers.map((x: any) => [x.name, x.image])).toEqual([['side', 'busybox'], ['app', 'nginx:1']]);
    // a merge patch replaces the list
    const m2 = await c.req('PATCH', `${D}/web`, { spec: { template: { spec: { containers: [{ name: 'only', image: 'busybox' }] } } } }, MERGE);
    expect(m2.body.spec.template.spec.containers.map((x: any) => x.name)).toEqual(['only']);
  });

  it('empty metadata maps and lists are not serialized (ObjectMeta omitempty), as after a kubectl diff patch', async () => {
    const r = await c.req('PATCH', `${D}/web`, { metadata: { annotations: {}, labels: {}, finalizers: [] } }, SMP);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.metadata)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields']);
    const p = await c.req('POST', CM, cm('e', {}, { labels: {}, annotations: {} }));
    expect(p.body.metadata.labels).toBeUndefined();
    expect(p.body.metadata.annotations).toBeUndefined();
  });

  it('a failing JSON patch test operation fails the request with 422', async () => {
    const r = await c.req('PATCH', `${D}/web`, [{ op: 'test', path: '/spec/replicas', value: 5 }, { op: 'replace', path: '/spec/replicas', value: 9 }], JSONP);
    expect(r.body).toEqual(status(422, 'Invalid', 'the server rejected our request due to an error in our request', {}));
    expect((await c.req('GET', `${D}/web`)).body.spec.replicas).toBe(1);
  });

  it('metadata.resourceVersion in a patch makes it conditional', async () => {
    const cur = (await c.req('GET', `${D}/web`)).body.metadata.resourceVersion;
    const stale = await c.req('PATCH', `${D}/web`, { metadata: { resourceVersion: '1' }, spec: { replicas: 3 } }, MERGE);
    expect(stale.body).toEqual(status(409, 'Conflict',
      'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      { name: 'web', group: 'apps', kind: 'deployments' }));
    const ok = await c.req('PATCH', `${D}/web`, { metadata: { resourceVersion: cur }, spec: { replicas: 3 } }, MERGE);
    expect(ok.status).toBe(200);
    expect(ok.body.spec.replicas).toBe(3);
  });

  it('404 on a missing object for every non-apply type', async () => {
    for (const [body, h] of [[{ spec: {} }, MERGE], [[], JSONP], [{ spec: {} }, SMP]] as const) {
      const r = await c.req('PATCH', `${D}/nope`, body, h);
      expect(r.body).toEqual(status(404, 'NotFound', 'deployments.apps "nope" not found', { name: 'nope', group: 'apps', kind: 'deployments' }));
    }
  });

  it('a non-apply patch records an Update entry for the writer; force is forbidden', async () => {
    const r = await c.req('PATCH', `${D}/web?fieldManager=tool`, { spec: { replicas: 2 } }, MERGE);
    expect(mf(r.body)[1]).toEqual(['tool', 'Update', '', { 'f:spec': { 'f:replicas': {} } }]);
    expect(mf(r.body)[0][0]).toBe('me');
    const f = await c.req('PATCH', `${D}/web?force=false`, { spec: {} }, MERGE);
    expect(f.body).toEqual(invalidOptions('PatchOptions', [{ reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' }]));
  });

  it('a patch may not rename the object or move it to another namespace', async () => {
    expect((await c.req('PATCH', `${D}/web`, { metadata: { name: 'other' } }, MERGE)).body).toEqual(
      status(400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (web)'));
    expect((await c.req('PATCH', `${D}/web`, { metadata: { namespace: 'kube-system' } }, MERGE)).body).toEqual(
      status(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request'));
  });

  it('resetting managedFields with [{}]: the reset comes first, the writer owns what it changed', async () => {
    const r = await c.req('PATCH', `${D}/web`, { metadata: { managedFields: [{}], labels: { a: 'b' } } }, { ...MERGE, 'User-Agent': 'curl/8.5' });
    expect(r.status).toBe(200);
    expect(mf(r.body)).toEqual([['curl', 'Update', '', { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } }]]);
  });
});

describe('server-side apply', () => {
  it('creates (201) from YAML, then updates (200) from JSON; owners are Apply entries', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  k: v\n';
    const r = await c.req('PATCH', `${CM}/cfg?fieldManager=alice`, yaml, APPLY);
    expect(r.status).toBe(201);
    expect(r.body.metadata.managedFields).toEqual([
      { manager: 'alice', operation: 'Apply', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} } } },
    ]);
    const j = await c.req('PATCH', `${CM}/cfg?fieldManager=alice`, cm('cfg', { k: 'v', l: 'w' }), APPLY);
    expect(j.status).toBe(200);
    expect(j.body.data).toEqual({ k: 'v', l: 'w' });
    expect(mf(j.body)).toEqual([['alice', 'Apply', '', { 'f:data': { 'f:k': {}, 'f:l': {} } }]]);
  });

  it('fieldManager is required; at most 128 bytes; printable', async () => {
    expect((await c.req('PATCH', `${CM}/cfg`, cm('cfg'), APPLY)).body).toEqual(
      invalidOptions('PatchOptions', [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }]));
    expect((await c.req('PATCH', `${CM}/cfg?fieldManager=${'x'.repeat(129)}`, cm('cfg'), APPLY)).body).toEqual(
      invalidOptions('PatchOptions', [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 128 bytes', field: 'fieldManager' }]));
    expect((await c.req('PATCH', `${CM}/cfg?fieldManager=${'x'.repeat(128)}`, cm('cfg'), APPLY)).status).toBe(201);
    expect((await c.req('PATCH', `${CM}/cfg?fieldManager=a%09b`, cm('cfg'), APPLY)).body).toEqual(
      invalidOptions('PatchOptions', [{ reason: 'FieldValueInvalid', message: 'Invalid value: "a\\tb": invalid character U+0009 (at position 1)', field: 'fieldManager' }]));
  });

  it('creating needs a name in the configuration; a uid there is a conflict', async () => {
    expect((await c.req('PATCH', `${CM}/b?fieldManager=x`, { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } }, APPLY)).body).toEqual(
      status(400, 'BadRequest', 'the name of the object (b based on URL) was undeterminable: name must be provided'));
    expect((await c.req('PATCH', `${CM}/b?fieldManager=x`, cm('b', {}, { uid: 'u1' }), APPLY)).body).toEqual(
      status(409, 'Conflict', 'Operation cannot be fulfilled on configmaps "b": uid mismatch: the provided object specified uid u1, and no existing object was found', { name: 'b', kind: 'configmaps' }));
    expect((await c.req('PATCH', `${CM}/b?fieldManager=x`, '- a\n- b\n', APPLY)).body).toEqual(
      status(400, 'BadRequest', 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}'));
  });

  it('managedFields in the body: 400', async () => {
    const r = await c.req('PATCH', `${CM}/cfg?fieldManager=a`, cm('cfg', {}, { managedFields: [] }), APPLY);
    expect(r.body).toEqual(status(400, 'BadRequest', 'metadata.managedFields must be nil'));
  });

  it('conflicts: 409 with one cause per field; force takes ownership; same value is shared', async () => {
    await c.req('POST', `${D}?fieldManager=me`, dep('web'));
    const r = await c.req('PATCH', `${D}/web?fieldManager=alice`, dep('web', 3, 'nginx:2'), APPLY);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Apply failed with 2 conflicts: conflicts with "me" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="app"].image',
      reason: 'Conflict',
      details: { causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "me" using apps/v1', field: '.spec.replicas' },
        { reason: 'FieldManagerConflict', message: 'conflict with "me" using apps/v1', field: '.spec.template.spec.containers[name="app"].image' },
      ] },
      code: 409,
    });
    const shared = await c.req('PATCH', `${D}/web?fieldManager=alice`, dep('web'), APPLY);
    expect(shared.status).toBe(200);
    expect(shared.body.metadata.managedFields[0]).toMatchObject({ manager: 'alice', operation: 'Apply' });
    expect(shared.body.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect(shared.body.metadata.managedFields[1].fieldsV1['f:spec']['f:replicas']).toEqual({});
    const forced = await c.req('PATCH', `${D}/web?fieldManager=alice&force=true`, dep('web', 3), APPLY);
    expect(forced.status).toBe(200);
    expect(forced.body.spec.replicas).toBe(3);
    expect(forced.body.metadata.managedFields[1].fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    const again = await c.req('PATCH', `${D}/web?fieldManager=bob`, dep('web', 4), APPLY);
    expect(again.body.message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
  });

  it('an undeclared field fails the apply (500, as the real type converter)', async () => {
    const r = await c.req('PATCH', `${CM}/cfg?fieldManager=a`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\nfoo: 1\n', APPLY);
    expect(r.body).toEqual(status(500, undefined, 'failed to create typed patch object (/cfg; /v1, Kind=ConfigMap): .foo: field not declared in schema'));
  });

  it('duplicate keys in the YAML body: Strict 400, Warn header', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  k: v\n  k: w\n';
    const s = await c.req('PATCH', `${CM}/cfg?fieldManager=a&fieldValidation=Strict`, yaml, APPLY);
    expect(s.body).toEqual(status(400, 'BadRequest', 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "k" already set in map'));
    const w = await c.req('PATCH', `${CM}/cfg?fieldManager=a`, yaml, APPLY);
    expect(w.status).toBe(201);
    expect(warnings(w.headers)).toEqual(['299 - "line 7: key \\"k\\" already set in map"']);
    const i = await c.req('PATCH', `${CM}/cfg?fieldManager=a&fieldValidation=Ignore`, yaml, APPLY);
    expect(i.status).toBe(200);
    expect(i.headers.get('warning')).toBeNull();
  });

  it('apply to /status owns status only', async () => {
    await c.req('POST', `${D}?fieldManager=me`, dep('web'));
    const r = await c.req('PATCH', `${D}/web/status?fieldManager=ctrl`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, status: { replicas: 1 } }, APPLY);
    expect(r.status).toBe(200);
    expect(r.body.status).toEqual({ replicas: 1 });
    expect(mf(r.body)).toContainEqual(['ctrl', 'Apply', 'status', { 'f:status': { 'f:replicas': {} } }]);
  });
});

describe('dry run', () => {
  it('POST, PUT, PATCH and DELETE with dryRun=All answer normally and persist nothing (no watch event)', async () => {
    await c.req('POST', CM, cm('keep'));
    const rev = c.server.engine.store.state.revision;
    const post = await c.req('POST', `${CM}?dryRun=All`, cm('dry'));
    expect(post.status).toBe(201);
    expect(post.body.metadata.uid).toBeDefined();
    expect(post.body.metadata.resourceVersion).toBeUndefined();
    const put = await c.req('PUT', `${CM}/keep?dryRun=All`, cm('keep', { a: '2' }));
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ a: '2' });
    const patch = await c.req('PATCH', `${CM}/keep?dryRun=All`, { data: { b: '3' } }, MERGE);
    expect(patch.body.data).toEqual({ a: '1', b: '3' });
    const apply = await c.req('PATCH', `${CM}/applied?dryRun=All&fieldManager=a`, cm('applied'), APPLY);
    expect(apply.status).toBe(201);
    const del = await c.req('DELETE', `${CM}/keep?dryRun=All`);
    expect(del.status).toBe(200);
    expect(c.server.engine.store.state.revision).toBe(rev);
    expect((await c.req('GET', `${CM}/keep`)).body.data).toEqual({ a: '1' });
    expect((await c.req('GET', `${CM}/dry`)).status).toBe(404);
    // `?dryRun` with no value is a real write
    expect((await c.req('POST', `${CM}?dryRun`, cm('real'))).status).toBe(201);
    expect((await c.req('GET', `${CM}/real`)).status).toBe(200);
  });

  it('any other value: 422 naming every invalid option in order', async () => {
    const r = await c.req('POST', `${CM}?dryRun=foo&fieldManager=%07x&fieldValidation=x`, cm('d'));
    expect(r.body).toEqual(invalidOptions('CreateOptions', [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "\\u0007x": invalid character U+0007 (at position 0)', field: 'fieldManager' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: []string{"foo"}: supported values: "All"', field: 'dryRun' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"', field: 'fieldValidation' },
    ]));
    const u = await c.req('PUT', `${CM}/d?dryRun=None`, cm('d'));
    expect(u.body).toEqual(invalidOptions('UpdateOptions', [
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: []string{"None"}: supported values: "All"', field: 'dryRun' },
    ]));
  });
});

describe('field validation', () => {
  it('Warn (default): one Warning per field, unknown fields dropped', async () => {
    const r = await c.req('POST', CM, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"w"},"foo":1,"data":{"a":"1"},"bar":{"x":1}}');
    expect(r.status).toBe(201);
    expect(warnings(r.headers)).toEqual(['299 - "unknown field \\"foo\\""', '299 - "unknown field \\"bar\\""']);
    expect(r.body.foo).toBeUndefined();
    expect((await c.req('GET', `${CM}/w`)).body.bar).toBeUndefined();
  });

  it('Strict: 400 naming every unknown and duplicate field (JSON and YAML); Ignore: silent', async () => {
    const json = await c.req('POST', `${CM}?fieldValidation=Strict`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s","name":"t"},"foo":1}');
    expect(json.body).toEqual(status(400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", unknown field "foo"'));
    const yaml = await c.req('POST', `${CM}?fieldValidation=Strict`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n  name: t\nfoo: 1\n', { 'Content-Type': 'application/yaml' });
    expect(yaml.body).toEqual(status(400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map, unknown field "foo"'));
    const ign = await c.req('POST', `${CM}?fieldValidation=Ignore`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"i"},"foo":1}');
    expect(ign.status).toBe(201);
    expect(ign.headers.get('warning')).toBeNull();
  });

  it('PUT Strict and Warn', async () => {
    await c.req('POST', CM, cm('p'));
    const s = await c.req('PUT', `${CM}/p?fieldValidation=Strict`, { ...cm('p'), spec: {} });
    expect(s.body).toEqual(status(400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"'));
    const w = await c.req('PUT', `${CM}/p`, { ...cm('p'), spec: {} });
    expect(w.status).toBe(200);
    expect(warnings(w.headers)).toEqual(['299 - "unknown field \\"spec\\""']);
  });

  it('PATCH Strict: 422 on `patch` with the patched object; Warn: warnings', async () => {
    await c.req('POST', CM, cm('p'));
    const s = await c.req('PATCH', `${CM}/p?fieldValidation=Strict`, { foo: 2 }, MERGE);
    expect(s.status).toBe(422);
    expect(s.body.reason).toBe('Invalid');
    expect(s.body.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"data\\":\{\\"a\\":\\"1\\"\},\\"foo\\":2,\\"kind\\":\\"ConfigMap\\",.*\}": strict decoding error: unknown field "foo"$/);
    expect(s.body.details.causes).toHaveLength(1);
    expect(s.body.details.causes[0].field).toBe('patch');
    const w = await c.req('PATCH', `${CM}/p`, '{"data":{"b":"1","b":"2"},"foo":1}', MERGE);
    expect(w.status).toBe(200);
    expect(warnings(w.headers)).toEqual(['299 - "duplicate field \\"data.b\\""', '299 - "unknown field \\"foo\\""']);
    expect(w.body.data).toEqual({ a: '1', b: '2' });
  });

  it('JSON patch: unknown fields of the patch document come first; strategic Strict prints the patch map', async () => {
    await c.req('POST', CM, cm('p'));
    const w = await c.req('PATCH', `${CM}/p`, '[{"op":"add","path":"/foo","value":1,"bogus":2}]', JSONP);
    expect(w.status).toBe(200);
    expect(warnings(w.headers)).toEqual(['299 - "json patch unknown field \\"[0].bogus\\""', '299 - "unknown field \\"foo\\""']);
    const s = await c.req('PATCH', `${CM}/p?fieldValidation=Strict`, '{"foo":1,"data":{"y":"2"}}', SMP);
    expect(s.body).toEqual(status(422, 'Invalid', ' "" is invalid: patch: Invalid value: "map[data:map[y:2] foo:1]": strict decoding error: unknown field "foo"', {
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "map[data:map[y:2] foo:1]": strict decoding error: unknown field "foo"', field: 'patch' }],
    }));
  });

  it('wrong types in a patch result: 422 on `patch` (decoder words for JSON/merge, converter words for strategic)', async () => {
    await c.req('POST', CM, cm('p'));
    const m = await c.req('PATCH', `${CM}/p`, '{"data":{"y":2}}', MERGE);
    expect(m.status).toBe(422);
    expect(m.body.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/);
    const s = await c.req('PATCH', `${CM}/p`, '{"data":{"y":2}}', SMP);
    expect(s.body.message).toBe(' "" is invalid: patch: Invalid value: "map[data:map[y:2]]": cannot convert int64 to string');
    const l = await c.req('PATCH', `${D}/x`, '{}', SMP);
    expect(l.status).toBe(404);
  });

  it('wrong types fail with the decoder 400 at every level', async () => {
    const r = await c.req('POST', `${D}?fieldValidation=Ignore`, { ...dep('t'), spec: { ...dep('t').spec, replicas: 'two' }, foo: 1 });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^Deployment in version "v1" cannot be handled as a Deployment: /);
    expect(r.body.message).not.toMatch(/unknown field/);
  });
});

describe('delete options', () => {
  it('preconditions on uid and resourceVersion: 409 naming the kind', async () => {
    await c.req('POST', CM, cm('c1'));
    await c.req('POST', D, dep('web'));
    const uid = await c.req('DELETE', `${CM}/c1`, { preconditions: { uid: 'x' } });
    expect(uid.status).toBe(409);
    expect(uid.body.message).toMatch(/^Operation cannot be fulfilled on ConfigMap "c1": the UID in the precondition \(x\) does not match the UID in record \([0-9a-f-]+\)\. The object might have been deleted and then recreated$/);
    expect(uid.body.details).toEqual({ name: 'c1', kind: 'ConfigMap' });
    const rv = await c.req('DELETE', `${D}/web`, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', preconditions: { resourceVersion: '1' } });
    const cur = (await c.req('GET', `${D}/web`)).body.metadata.resourceVersion;
    expect(rv.body).toEqual(status(409, 'Conflict',
      `Operation cannot be fulfilled on Deployment.apps "web": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${cur}). The object might have been modified`,
      { name: 'web', group: 'apps', kind: 'Deployment' }));
    const ok = await c.req('DELETE', `${D}/web`, { preconditions: { resourceVersion: cur } });
    expect(ok.status).toBe(200);
  });

  it('answers: Success Status without code for a removed object; the object (200, or 202 with orphanDependents=false) while pending', async () => {
    const created = (await c.req('POST', CM, cm('c1'))).body;
    const r = await c.req('DELETE', `${CM}/c1`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'c1', kind: 'configmaps', uid: created.metadata.uid } });
    await c.req('POST', CM, cm('f1', {}, { finalizers: ['example.com/hold'] }));
    const pending = await c.req('DELETE', `${CM}/f1`);
    expect(pending.status).toBe(200);
    expect(pending.body.kind).toBe('ConfigMap');
    expect(pending.body.metadata.deletionTimestamp).toBe(T0);
    await c.req('POST', CM, cm('f2', {}, { finalizers: ['example.com/hold'] }));
    const accepted = await c.req('DELETE', `${CM}/f2`, { orphanDependents: false });
    expect(accepted.status).toBe(202);
    const d = (await c.req('POST', D, dep('web'))).body;
    const del = await c.req('DELETE', `${D}/web`);
    expect(del.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'web', group: 'apps', kind: 'deployments', uid: d.metadata.uid } });
  });

  it('propagationPolicy, orphanDependents and dryRun validated together (query)', async () => {
    await c.req('POST', CM, cm('c1'));
    const r = await c.req('DELETE', `${CM}/c1?propagationPolicy=Foo&orphanDependents=true&dryRun=x`);
    expect(r.body).toEqual(invalidOptions('DeleteOptions', [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "Foo": orphanDependents and deletionPropagation cannot be both set', field: 'propagationPolicy' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Foo": supported values: "Foreground", "Background", "Orphan", "nil"', field: 'propagationPolicy' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: []string{"x"}: supported values: "All"', field: 'dryRun' },
    ]));
    expect((await c.req('DELETE', `${CM}/c1?gracePeriodSeconds=abc`)).body).toEqual(status(400, 'BadRequest', 'strconv.ParseInt: parsing "abc": invalid syntax'));
  });

  it('a body wins over the query', async () => {
    await c.req('POST', CM, cm('c1'));
    const r = await c.req('DELETE', `${CM}/c1?propagationPolicy=Foo`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', gracePeriodSeconds: 0 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'c1', kind: 'configmaps' } });
    expect((await c.req('GET', `${CM}/c1`)).status).toBe(404);
  });

  it('body validation: the same 422 from a DeleteOptions body', async () => {
    await c.req('POST', CM, cm('c1'));
    const r = await c.req('DELETE', `${CM}/c1`, { propagationPolicy: 'Sideways', dryRun: ['All'] });
    expect(r.body).toEqual(invalidOptions('DeleteOptions', [
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"', field: 'propagationPolicy' },
    ]));
  });
});

describe('custom resources', () => {
  const W = '/apis/example.com/v1/namespaces/default/widgets';
  beforeEach(async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{
          name: 'v1', served: true, storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: {
            spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' }, tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } } },
            status: { type: 'object', properties: { replicas: { type: 'integer' } } },
          } } },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas' } },
        }],
      },
    };
    expect((await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
  });
  const widget = (spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec });

  it('apply creates and shares a set; strategic merge patch is 415', async () => {
    const a = await c.req('PATCH', `${W}/w1?fieldManager=alice`, widget({ size: 1, tags: ['a', 'b'] }), APPLY);
    expect(a.status).toBe(201);
    expect(mf(a.body)).toEqual([['alice', 'Apply', '', { 'f:spec': { 'f:size': {}, 'f:tags': { 'v:"a"': {}, 'v:"b"': {} } } }]]);
    expect(a.body.metadata.generation).toBe(1);
    const b = await c.req('PATCH', `${W}/w1?fieldManager=bob`, widget({ tags: ['b', 'c'] }), APPLY);
    expect(b.body.spec.tags).toEqual(['a', 'b', 'c']);
    expect(mf(b.body)[1]).toEqual(['bob', 'Apply', '', { 'f:spec': { 'f:tags': { 'v:"b"': {}, 'v:"c"': {} } } }]);
    const s = await c.req('PATCH', `${W}/w1`, { spec: { size: 2 } }, SMP);
    expect(s.body).toEqual(status(415, 'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'));
  });

  it('the scale subresource follows specReplicasPath', async () => {
    await c.req('POST', W, widget({ size: 1 }));
    const p = await c.req('PATCH', `${W}/w1/scale?fieldManager=hpa`, { spec: { replicas: 4 } }, MERGE);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 4 }, status: { replicas: 0 } });
    const w = (await c.req('GET', `${W}/w1`)).body;
    expect(w.spec.size).toBe(4);
    expect(w.metadata.generation).toBe(2);
    expect(w.metadata.managedFields.find((e: any) => e.manager === 'hpa')).toEqual({
      manager: 'hpa', operation: 'Update', apiVersion: 'example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:size': {} } }, subresource: 'scale',
    });
  });

  it('unknown fields are pruned with a warning (Warn) or rejected (Strict)', async () => {
    const w = await c.req('POST', W, widget({ size: 1, shape: 'round' }));
    expect(w.status).toBe(201);
    expect(warnings(w.headers)).toEqual(['299 - "unknown field \\"spec.shape\\""']);
    expect(w.body.spec).toEqual({ size: 1 });
    const s = await c.req('PUT', `${W}/w1?fieldValidation=Strict`, { ...widget({ size: 2, shape: 'round' }), metadata: { name: 'w1', resourceVersion: w.body.metadata.resourceVersion } });
    expect(s.body).toEqual(status(400, 'BadRequest', 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.shape"'));
  });
});
