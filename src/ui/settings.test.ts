import { describe, expect, it } from 'vitest';
import {
  appBaseUrl,
  simulationStatus,
  clusterBaseUrl,
  listPath,
  listableResources,
  parseSettings,
  resourceLabel,
  shortAge,
} from './settings.js';

describe('parseSettings', () => {
  it('defaults to the default cluster and the service worker', () => {
    expect(parseSettings('')).toEqual({ cluster: 'default', forcePageEngine: false, warnings: [] });
  });
  it('reads ?cluster= and ?engine=page', () => {
    expect(parseSettings('?cluster=dev-1&engine=page')).toEqual({ cluster: 'dev-1', forcePageEngine: true, warnings: [] });
    expect(parseSettings('?engine=sw')).toEqual({ cluster: 'default', forcePageEngine: false, warnings: [] });
  });
  it('rejects invalid cluster names and unknown engines with a warning', () => {
    expect(parseSettings('?cluster=Prod_1&engine=worker')).toEqual({
      cluster: 'default',
      forcePageEngine: false,
      warnings: [
        '"Prod_1" is not a valid cluster name (a lowercase DNS label); using "default"',
        'unknown engine "worker" (use "page" or "sw")',
      ],
    });
  });
});

describe('base URLs', () => {
  it('joins origin, app base and cluster', () => {
    expect(appBaseUrl('http://localhost:5173', '/')).toBe('http://localhost:5173/');
    expect(appBaseUrl('https://x.dev', '/play')).toBe('https://x.dev/play/');
    expect(appBaseUrl('https://x.dev', 'play/')).toBe('https://x.dev/play/');
    expect(clusterBaseUrl('http://localhost:5173/', 'default')).toBe('http://localhost:5173/clusters/default');
  });
});

describe('resources from discovery', () => {
  const coreList = {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      { name: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['create', 'get', 'list'] },
      { name: 'namespaces', kind: 'Namespace', namespaced: false, verbs: ['list'] },
      { name: 'pods/status', kind: 'Pod', namespaced: true, verbs: ['get'] },
      { name: 'bindings', kind: 'Binding', namespaced: true, verbs: ['create'] },
    ],
  };
  it('keeps namespaced, listable resources without subresources', () => {
    expect(listableResources('v1', coreList)).toEqual([
      { groupVersion: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true },
    ]);
    expect(listableResources('v1', { kind: 'Status' })).toEqual([]);
  });
  it('labels and paths', () => {
    const deployments = { groupVersion: 'apps/v1', plural: 'deployments', kind: 'Deployment', namespaced: true };
    expect(resourceLabel(deployments)).toBe('Deployment (deployments.apps)');
    expect(listPath(deployments, 'kube-system')).toBe('/apis/apps/v1/namespaces/kube-system/deployments');
    const cm = { groupVersion: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true };
    expect(resourceLabel(cm)).toBe('ConfigMap (configmaps)');
    expect(listPath(cm, 'default')).toBe('/api/v1/namespaces/default/configmaps');
    expect(listPath({ ...cm, namespaced: false, plural: 'namespaces' }, 'x')).toBe('/api/v1/namespaces');
  });
});

describe('shortAge', () => {
  const now = Date.parse('2026-01-02T03:04:05Z');
  it('formats seconds, minutes, hours and days', () => {
    expect(shortAge('2026-01-02T03:04:00Z', now)).toBe('5s');
    expect(shortAge('2026-01-02T03:00:05Z', now)).toBe('4m');
    expect(shortAge('2026-01-01T23:04:05Z', now)).toBe('4h');
    expect(shortAge('2025-12-28T03:04:05Z', now)).toBe('5d');
    expect(shortAge(undefined, now)).toBe('<unknown>');
    expect(shortAge('yesterday', now)).toBe('<invalid>');
  });
});

describe('simulationStatus', () => {
  it('says whether the cluster is simulated', () => {
    expect(simulationStatus(true)).toMatch(/^Simulated cluster: /);
    expect(simulationStatus(false)).toMatch(/^Bare API server: /);
  });
});
