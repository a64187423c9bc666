// The kinds added for the whole v1.33 surface, on the wire: what a user meets when writing them (defaults,
// validation messages, immutable fields, the CSR requestor and approval), the computed componentstatuses
// and TokenReview.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { SAMPLE_CSR } from './samples.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const invalidStatus = (kind: string, group: string, name: string, causes: { reason: string; message: string; field: string }[]) => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
  message: `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${causes.length === 1 ? `${causes[0].field}: ${causes[0].message}` : `[${causes.map((x) => `${x.field}: ${x.message}`).join(', ')}]`}`,
  reason: 'Invalid', details: { name, ...(group ? { group } : {}), kind, causes }, code: 422,
});

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const csr = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: SAMPLE_CSR, signerName: 'example.com/signer', usages: ['client auth'], ...spec },
});

describe('CertificateSigningRequest', () => {
  it('records the requesting user, whatever the body says, and starts with an empty status', async () => {
    const r = await c.req('POST', CSRS, csr('a', { username: 'mallory', groups: ['system:masters'] }));
    expect(r.status).toBe(201);
    expect(r.body.spec.username).toBe('kubernetes-admin');
    expect(r.body.spec.groups).toEqual(['system:masters', 'system:authenticated']);
    expect(r.body.status).toEqual({});
  });

  it('validates signerName, usages, expirationSeconds and the request', async () => {
    const r = await c.req('POST', CSRS, csr('b', { signerName: 'nodomain', usages: ['client auth', 'flying', 'client auth'], expirationSeconds: 60 }));
    expect(r.body).toEqual(invalidStatus('CertificateSigningRequest', 'certificates.k8s.io', 'b', [
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "flying": supported values: "signing", "digital signature", "content commitment", "key encipherment", "key agreement", "data encipherment", "cert sign", "crl sign", "encipher only", "decipher only", "any", "server auth", "client auth", "code signing", "email protection", "s/mime", "ipsec end system", "ipsec tunnel", "ipsec user", "timestamping", "ocsp signing", "microsoft sgc", "netscape sgc"', field: 'spec.usages[1]' },
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "client auth"', field: 'spec.usages[2]' },
      { reason: 'FieldValueInvalid', message: "Invalid value: \"nodomain\": must be a fully qualified domain and path of the form 'example.com/signer-name'", field: 'spec.signerName' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)', field: 'spec.expirationSeconds' },
    ]));
    const legacy = await c.req('POST', CSRS, csr('c', { signerName: 'kubernetes.io/legacy-unknown' }));
    expect(legacy.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version', field: 'spec.signerName' }]);
    const pem = await c.req('POST', CSRS, csr('d', { request: btoa('hi') }));
    expect(pem.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: []byte{0x68, 0x69}: PEM block type must be CERTIFICATE REQUEST', field: 'spec.request' }]);
  });

  it('approval goes through /approval only; spec and approval conditions are out of reach elsewhere', async () => {
    await c.req('POST', CSRS, csr('a'));
    const cur = (await c.req('GET', `${CSRS}/a`)).body;
    const approved = { ...cur, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'ByHand', message: 'ok' }] } };
    // through /status, adding Approved is forbidden
    const viaStatus = await c.req('PUT', `${CSRS}/a/status`, approved);
    expect(viaStatus.body.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: updates may not add a condition of type "Approved"', field: 'status.conditions' }]);
    const r = await c.req('PUT', `${CSRS}/a/approval`, approved);
    expect(r.status).toBe(200);
    expect(r.body.status.conditions).toEqual([{ type: 'Approved', status: 'True', reason: 'ByHand', message: 'ok', lastUpdateTime: '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z' }]);
    // the main resource keeps spec and status
    const main = await c.req('PUT', `${CSRS}/a`, { ...r.body, spec: { ...r.body.spec, signerName: 'other.com/x' }, status: {} });
    expect(main.status).toBe(200);
    expect(main.body.spec.signerName).toBe('example.com/signer');
    expect(main.body.status.conditions).toHaveLength(1);
    // Approved and Denied together, and a removal
    const both = await c.req('PUT', `${CSRS}/a/approval`, { ...main.body, status: { conditions: [...main.body.status.conditions, { type: 'Denied', status: 'True' }] } });
    expect(both.status).toBe(422);
    expect(both.body.details.causes.map((x: any) => x.message)).toContain('Invalid value: []certificates.CertificateSigningRequestCondition{...}: Approved and Denied conditions are mutually exclusive');
    const removed = await c.req('PUT', `${CSRS}/a/approval`, { ...main.body, status: { conditions: [] } });
    expect(removed.body.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: updates may not remove a condition of type "Approved"', field: 'status.conditions' }]);
    expect((await c.req('GET', `${CSRS}/a/approval`)).body.status.conditions[0].type).toBe('Approved');
  });
});

describe('networking: ServiceCIDR and IPAddress', () => {
  const SC = '/apis/networking.k8s.io/v1/servicecidrs';
  const IP = '/apis/networking.k8s.io/v1/ipaddresses';
  it('a fresh cluster has the kubernetes ServiceCIDR; CIDRs are checked and fixed', async () => {
    const k = await c.req('GET', `${SC}/kubernetes`);
    expect(k.body.spec).toEqual({ cidrs: ['10.96.0.0/12'] });
    expect(k.body.status.conditions[0]).toMatchObject({ type: 'Ready', status: 'True' });
    const none = await c.req('POST', SC, { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'x' }, spec: {} });
    expect(none.body.details.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value: at least one CIDR required', field: 'spec.cidrs' }]);
    const bad = await c.req('POST', SC, { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'x' }, spec: { cidrs: ['10.0.0.0/33'] } });
    expect(bad.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)', field: 'spec.cidrs[0]' }]);
    const two = await c.req('POST', SC, { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'x' }, spec: { cidrs: ['10.0.0.0/16', '10.1.0.0/16'] } });
    expect(two.body.details.causes[0].message).toMatch(/may specify no more than one IP for each IP family, i\.e 192\.168\.0\.0\/24 and 2001:db8::\/64$/);
    const ok = await c.req('POST', SC, { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'x' }, spec: { cidrs: ['10.0.0.0/16'] } });
    expect(ok.status).toBe(201);
    // a second family may be added; the first is fixed
    expect((await c.req('PATCH', `${SC}/x`, { spec: { cidrs: ['10.0.0.0/16', 'fd00::/108'] } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
    const change = await c.req('PATCH', `${SC}/x`, { spec: { cidrs: ['10.9.0.0/16'] } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(change.body.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.cidrs' });
  });

  it('an IPAddress is named by its address in canonical form and needs a parent', async () => {
    const mk = (name: string, spec: Record<string, unknown> = { parentRef: { resource: 'services', namespace: 'default', name: 'web' } }) =>
      c.req('POST', IP, { apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name }, spec });
    expect((await mk('10.96.0.20')).status).toBe(201);
    expect((await mk('web')).body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "web": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)', field: 'metadata.name' }]);
    expect((await mk('2001:db8:0::1')).body.details.causes[0].message).toBe('Invalid value: "2001:db8:0::1": must be in canonical form ("2001:db8::1")');
    expect((await mk('10.96.0.21', {})).body.details.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.parentRef' }]);
    const t = await c.req('GET', `${IP}/10.96.0.20`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(t.body.rows[0].cells).toEqual(['10.96.0.20', 'services/default/web']);
  });
});

describe('other kinds', () => {
  it('RuntimeClass: the handler is a DNS label and fixed', async () => {
    const RC = '/apis/node.k8s.io/v1/runtimeclasses';
    const bad = await c.req('POST', RC, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'g' }, handler: 'Run.C' });
    expect(bad.body.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'handler' });
    expect((await c.req('POST', RC, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'g' }, handler: 'runsc' })).status).toBe(201);
    const change = await c.req('PATCH', `${RC}/g`, { handler: 'kata' }, { 'Content-Type': 'application/merge-patch+json' });
    expect(change.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "kata": field is immutable', field: 'handler' }]);
  });

  it('CSIDriver: the v1 defaults', async () => {
    const r = await c.req('POST', '/apis/storage.k8s.io/v1/csidrivers', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'disk.example.com' }, spec: {} });
    expect(r.body.spec).toEqual({ attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'], storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', requiresRepublish: false, seLinuxMount: false });
  });

  it('APIService: named <version>.<group>; the Local ones are there from the start', async () => {
    const AS = '/apis/apiregistration.k8s.io/v1/apiservices';
    const local = await c.req('GET', `${AS}/v1.apps`);
    expect(local.body.spec).toEqual({ group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    const bad = await c.req('POST', AS, { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'metrics' }, spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, service: { namespace: 'kube-system', name: 'metrics-server' } } });
    expect(bad.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "metrics": must be `spec.version+"."+spec.group`', field: 'metadata.name' }]);
  });

  it('flow control: the mandatory objects, and the v1 defaults of a new priority level', async () => {
    const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
    expect((await c.req('GET', `${FC}/flowschemas`)).body.items.map((i: any) => [i.metadata.name, i.spec.matchingPrecedence])).toEqual([['catch-all', 10000], ['exempt', 1]]);
    const r = await c.req('POST', `${FC}/prioritylevelconfigurations`, { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'batch' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } });
    expect(r.body.spec.limited).toEqual({ nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } });
    const fs = await c.req('POST', `${FC}/flowschemas`, { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'f' }, spec: { priorityLevelConfiguration: { name: 'batch' } } });
    expect(fs.body.spec.matchingPrecedence).toBe(1000);
  });
});

describe('componentstatuses', () => {
  it('get, list, Table and NotFound as the real REST answers; no watch, no write', async () => {
    const list = await c.req('GET', '/api/v1/componentstatuses');
    expect(list.headers.get('Warning')).toBe('299 - "v1 ComponentStatus is deprecated in v1.19+"');
    expect(list.body).toEqual({
      kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {},
      items: ['controller-manager', 'etcd-0', 'scheduler'].map((name) => ({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name, creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] })),
    });
    expect((await c.req('GET', '/api/v1/componentstatuses?fieldSelector=metadata.name=etcd-0')).body.items.map((i: any) => i.metadata.name)).toEqual(['etcd-0']);
    const missing = await c.req('GET', '/api/v1/componentstatuses/x');
    expect(missing.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'componentstatus "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'componentstatus' }, code: 404 });
    const t = await c.req('GET', '/api/v1/componentstatuses/scheduler', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(t.body.columnDefinitions.map((d: any) => d.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(t.body.rows[0].cells).toEqual(['scheduler', 'Healthy', 'ok', '']);
    expect((await c.req('GET', '/api/v1/componentstatuses?watch=true')).status).toBe(405);
    expect((await c.req('POST', '/api/v1/componentstatuses', { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'x' } })).status).toBe(405);
  });
});

describe('TokenReview', () => {
  it('says whom a token authenticates; a token is required', async () => {
    const TR = '/apis/authentication.k8s.io/v1/tokenreviews';
    const empty = await c.req('POST', TR, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} });
    expect(empty.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'token is required for TokenReview in authentication', reason: 'BadRequest', code: 400 });
    const bogus = await c.req('POST', TR, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'nope' } });
    expect(bogus.status).toBe(201);
    expect(bogus.body.status).toEqual({ user: {} });
    const tok = await c.req('POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } });
    expect(tok.status).toBe(201);
    const issued = await c.req('POST', '/api/v1/namespaces/default/serviceaccounts/bot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    const r = await c.req('POST', TR, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: issued.body.status.token } });
    expect(r.body.status.authenticated).toBe(true);
    expect(r.body.status.user.username).toBe('system:serviceaccount:default:bot');
    // never stored
    expect((await c.req('GET', TR)).status).toBe(405);
  });
});
