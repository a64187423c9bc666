// Feature gates and runtime-config in the engine (issue 12 item 6): parsing and checking with the real
// messages (featureGate.Set/SetFromMap, resourceconfig.MergeAPIResourceConfigs, APIEnablementOptions), the
// effect of --runtime-config on discovery (plain and aggregated), OpenAPI v2/v3 and paths, the gates that
// change behaviour, and the settings stored with a cluster (GET/PUT /x-playground/settings, applied on restart).
import { describe, expect, it } from 'vitest';
import { createMemoryStorage, memoryStorageFromState } from '../../adapters/memory/memory-storage.js';
import { testClient } from '../testing/harness.js';
import { parseFeatureGates, resolveFeatureGates } from './gates.js';
import { parseRuntimeConfig, resolveRuntimeConfig } from './runtime-config.js';
import { checkSettingsText } from './settings.js';

const AGG = { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' };

describe('feature gate parsing and checking', () => {
  it('parses A=true,B=false with Go bool spellings; every refusal has the real message', () => {
    expect(parseFeatureGates(' CBORServingAndStorage = true,,WatchList=F')).toEqual({ CBORServingAndStorage: true, WatchList: false });
    expect(() => parseFeatureGates('CBORServingAndStorage')).toThrow(/^missing bool value for CBORServingAndStorage$/);
    expect(() => parseFeatureGates('WatchList=yes')).toThrow(/^invalid value of WatchList=yes, err: strconv\.ParseBool: parsing "yes": invalid syntax$/);
    expect(resolveFeatureGates({ NoSuchGate: true }).errors).toEqual(['unrecognized feature gate: NoSuchGate']);
    expect(resolveFeatureGates({ SidecarContainers: false }).errors).toEqual(['cannot set feature gate SidecarContainers to false, feature is locked to true']);
    expect(resolveFeatureGates({ WatchFromStorageWithoutResourceVersion: true }).errors).toEqual(['cannot set feature gate WatchFromStorageWithoutResourceVersion to true, feature is locked to false']);
  });

  it('defaults: alpha off, beta per its default, GA on; naming a GA or deprecated gate warns', () => {
    const r = resolveFeatureGates({ SidecarContainers: true, KMSv1: false, CBORServingAndStorage: true });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      'Setting GA feature gate SidecarContainers=true. It will be removed in a future release.',
      'Setting deprecated feature gate KMSv1=false. It will be removed in a future release.',
    ]);
    const d = resolveFeatureGates({}).enabled;
    expect([d.AllowUnsafeMalformedObjectDeletion, d.CBORServingAndStorage, d.APIResponseCompression, d.DeclarativeValidation, d.DeclarativeValidationTakeover, d.RetryGenerateName]).toEqual([false, false, true, true, false, true]);
    expect(r.enabled.CBORServingAndStorage).toBe(true);
  });

  it('AllAlpha/AllBeta set every alpha/beta gate not named explicitly', () => {
    const r = resolveFeatureGates({ AllAlpha: true, CBORServingAndStorage: false, AllBeta: false });
    expect(r.enabled.AllowUnsafeMalformedObjectDeletion).toBe(true);
    expect(r.enabled.CBORServingAndStorage).toBe(false);
    expect(r.enabled.APIResponseCompression).toBe(false);
    expect(r.enabled.SidecarContainers).toBe(true);
  });

  it('settings as typed: the Node host\'s flag messages', () => {
    expect(() => checkSettingsText({ featureGates: 'Foo=true', runtimeConfig: '' })).toThrow('invalid argument "Foo=true" for "--feature-gates" flag: unrecognized feature gate: Foo');
    expect(() => checkSettingsText({ featureGates: 'Foo', runtimeConfig: '' })).toThrow('invalid argument "Foo" for "--feature-gates" flag: missing bool value for Foo');
    expect(() => checkSettingsText({ featureGates: 'SidecarContainers=false,RetryGenerateName=false', runtimeConfig: '' })).toThrow(
      'invalid argument "SidecarContainers=false,RetryGenerateName=false" for "--feature-gates" flag: [cannot set feature gate SidecarContainers to false, feature is locked to true, cannot set feature gate RetryGenerateName to false, feature is locked to true]',
    );
  });
});

describe('runtime-config checking', () => {
  const check = (v: string) => () => resolveRuntimeConfig(parseRuntimeConfig(v));
  it('refuses what kube-apiserver refuses, with its messages', () => {
    expect(check('api/all=false')).toThrow(/^invalid key with only api\/all=false$/);
    expect(check('batch=false')).toThrow(/^runtime-config invalid key batch$/);
    expect(check('example.com/v1=true')).toThrow(/^unknown api groups example\.com$/);
    expect(check('batch/v2=true')).toThrow(/^group version batch\/v2 that has not been registered$/);
    expect(check('api/ga=no')).toThrow(/^invalid value api\/ga=no$/);
    expect(check('batch/v1=maybe')).toThrow(/^invalid value of batch\/v1: maybe, err: strconv\.ParseBool: parsing "maybe": invalid syntax$/);
    expect(check('apps/v1/Deployments=false')).toThrow(/^invalid key apps\/v1\/Deployments: group\/version\/resource and resource is always lowercase plural, not "Deployments"$/);
  });

  it('groups, versions, resources; alpha versions off unless enabled; a missing value means true; core as v1 or api/v1', () => {
    const e = resolveRuntimeConfig(parseRuntimeConfig('batch/v1=false,apps/v1/deployments=false,storage.k8s.io/v1alpha1'));
    expect(e.served('batch', 'v1', 'jobs')).toBe(false);
    expect(e.served('apps', 'v1', 'deployments')).toBe(false);
    expect(e.served('apps', 'v1', 'replicasets')).toBe(true);
    expect(e.served('storage.k8s.io', 'v1alpha1', 'volumeattributesclasses')).toBe(true);
    expect(resolveRuntimeConfig({}).served('storage.k8s.io', 'v1alpha1', 'volumeattributesclasses')).toBe(false);
    const only = resolveRuntimeConfig(parseRuntimeConfig('api/all=false,api/v1=true,batch/v1/jobs=true'));
    expect([only.served('', 'v1', 'pods'), only.served('apps', 'v1', 'deployments'), only.served('batch', 'v1', 'jobs'), only.served('batch', 'v1', 'cronjobs')]).toEqual([true, false, true, false]);
  });
});

describe('runtime-config on the wire', () => {
  it('a disabled group leaves /apis, aggregated discovery, /openapi/v3 and /openapi/v2; its paths are 404', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], runtimeConfig: { 'batch/v1': 'false' } });
    const groups = (await c.req('GET', '/apis')).body.groups.map((g: any) => g.name);
    expect(groups).not.toContain('batch');
    expect(groups).toContain('apps');
    const agg = (await c.req('GET', '/apis', undefined, AGG)).body.items.map((g: any) => g.metadata.name);
    expect(agg).not.toContain('batch');
    for (const p of ['/apis/batch', '/apis/batch/v1', '/apis/batch/v1/namespaces/default/jobs', '/apis/batch/v1/cronjobs', '/openapi/v3/apis/batch/v1']) {
      const r = await c.req('GET', p);
      expect([p, r.status, r.body.message]).toEqual([p, 404, 'the server could not find the requested resource']);
    }
    expect(Object.keys((await c.req('GET', '/openapi/v3')).body.paths)).not.toContain('apis/batch/v1');
    const v2 = (await c.req('GET', '/openapi/v2')).body;
    expect(Object.keys(v2.paths).some((p) => p.startsWith('/apis/batch/'))).toBe(false);
    expect((await c.req('GET', '/')).body.paths).not.toContain('/apis/batch');
  });

  it('a single resource off: the rest of its group version is served', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], runtimeConfig: { 'apps/v1/deployments': 'false' } });
    const names = (await c.req('GET', '/apis/apps/v1')).body.resources.map((r: any) => r.name);
    expect(names).not.toContain('deployments');
    expect(names).toContain('replicasets');
    expect((await c.req('GET', '/apis/apps/v1/namespaces/default/deployments')).status).toBe(404);
    expect((await c.req('GET', '/apis/apps/v1/namespaces/default/replicasets')).status).toBe(200);
  });

  it('refused settings stop the engine at start (every request answers the message)', async () => {
    const bad = await testClient(createMemoryStorage(), { controllers: [], featureGates: { NoSuchGate: true } }).catch((e: Error) => e.message);
    expect(bad).toBe('unrecognized feature gate: NoSuchGate');
    const rc = await testClient(createMemoryStorage(), { controllers: [], runtimeConfig: { 'example.com/v1': '' } }).catch((e: Error) => e.message);
    expect(rc).toBe('unknown api groups example.com');
  });
});

describe('gates that change behaviour', () => {
  it('WatchList (on, as the spec has it): off refuses sendInitialEvents with the real message', async () => {
    const path = '/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=0';
    const on = await testClient(createMemoryStorage(), { controllers: [] });
    expect((await on.raw('GET', path)).status).toBe(200);
    const off = await testClient(createMemoryStorage(), { controllers: [], featureGates: { WatchList: false } });
    const r = await off.req('GET', path);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled');
  });

  it('CBORServingAndStorage (alpha, off): application/cbor is served only with it on', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const off = await testClient(createMemoryStorage(), { controllers: [] });
    expect((await off.raw('GET', path, undefined, { Accept: 'application/cbor' })).status).toBe(406);
    const on = await testClient(createMemoryStorage(), { controllers: [], featureGates: { CBORServingAndStorage: true } });
    const r = await on.raw('GET', path, undefined, { Accept: 'application/cbor' });
    expect([r.status, r.headers.get('Content-Type')]).toEqual([200, 'application/cbor']);
  });
});

describe('settings stored with the cluster', () => {
  it('PUT checks (400 with the flag message, nothing stored), stores, warns, asks for a restart; the next start applies them', async () => {
    const storage = memoryStorageFromState();
    const c = await testClient(storage, { controllers: [] });
    const bad = await c.req('PUT', '/x-playground/settings', { featureGates: 'Foo=true', runtimeConfig: '' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'invalid argument "Foo=true" for "--feature-gates" flag: unrecognized feature gate: Foo', reason: 'BadRequest', code: 400 });
    const badRc = await c.req('PUT', '/x-playground/settings', { featureGates: '', runtimeConfig: 'api/all=false' });
    expect(badRc.body.message).toBe('invalid key with only api/all=false');
    expect((await c.req('GET', '/x-playground/settings')).body.featureGates).toBe('');
    const ok = await c.req('PUT', '/x-playground/settings', { featureGates: 'AllowUnsafeMalformedObjectDeletion=true,SidecarContainers=true', runtimeConfig: 'batch/v1=false' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('X-Playground-Restart')).toBe('true');
    expect(ok.headers.get('Warning')).toBe('299 - "Setting GA feature gate SidecarContainers=true. It will be removed in a future release."');
    expect(ok.body).toMatchObject({ featureGates: 'AllowUnsafeMalformedObjectDeletion=true,SidecarContainers=true', runtimeConfig: 'batch/v1=false', restartRequired: true });
    // not in effect before the restart
    expect((await c.req('GET', '/apis/batch/v1')).status).toBe(200);
    const again = await testClient(memoryStorageFromState(storage.exportState()), { controllers: [] });
    expect((await again.req('GET', '/apis/batch/v1')).status).toBe(404);
    const view = (await again.req('GET', '/x-playground/settings')).body;
    expect(view.inEffect.gates.find((g: any) => g.name === 'AllowUnsafeMalformedObjectDeletion')).toEqual({ name: 'AllowUnsafeMalformedObjectDeletion', stage: 'ALPHA', default: false, locked: false, enabled: true });
    expect(view.inEffect.disabledResources).toEqual(['batch/v1/jobs', 'batch/v1/cronjobs']);
    expect(view.inEffect.warnings).toEqual(['Setting GA feature gate SidecarContainers=true. It will be removed in a future release.']);
    // the stored gate changes behaviour: the forced delete is honoured (a readable object: 422, not ignored)
    await again.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } });
    expect((await again.req('DELETE', '/api/v1/namespaces/default/configmaps/x?ignoreStoreReadErrorWithClusterBreakingPotential=true')).status).toBe(422);
  });

  it('only a user allowed the non-resource path may change them', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], auth: { bootstrapPolicy: true } });
    const r = await c.req('PUT', '/x-playground/settings', { featureGates: '', runtimeConfig: '' }, { 'Impersonate-User': 'jane' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('forbidden: User "jane" cannot put path "/x-playground/settings"');
  });
});
