import { describe, expect, it } from 'vitest';
import { yamlLines } from '../common/yaml-lines.js';
import { entryLabel, entryPaths, lineOwners, ownedPaths, parseElement, unresolvedPaths, withoutManagedFields, type ManagedFieldsEntry } from './fields.js';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web', tier: 'fe' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      spec: {
        containers: [
          { name: 'app', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] },
          { name: 'side', image: 'busybox' },
        ],
      },
    },
  },
  status: { conditions: [] },
};

const apply: ManagedFieldsEntry = {
  manager: 'kubectl',
  operation: 'Apply',
  apiVersion: 'apps/v1',
  fieldsType: 'FieldsV1',
  fieldsV1: {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': {
      'f:replicas': {},
      'f:selector': {},
      'f:template': {
        'f:spec': {
          'f:containers': {
            'k:{"name":"app"}': {
              '.': {},
              'f:image': {},
              'f:name': {},
              'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
            },
          },
        },
      },
    },
  },
};
const hpa: ManagedFieldsEntry = {
  manager: 'hpa',
  operation: 'Update',
  apiVersion: 'apps/v1',
  subresource: 'scale',
  fieldsV1: { 'f:spec': { 'f:replicas': {} } },
};
const editor: ManagedFieldsEntry = {
  manager: 'editor',
  operation: 'Update',
  apiVersion: 'apps/v1',
  fieldsV1: {
    'f:metadata': { 'f:labels': { 'f:tier': {} } },
    'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"side"}': { '.': {}, 'f:image': {}, 'f:name': {} }, 'k:{"name":"gone"}': { '.': {} } } } } },
  },
};

describe('parseElement', () => {
  it('decodes the four element kinds', () => {
    expect(parseElement('f:a.b')).toEqual({ kind: 'field', name: 'a.b' });
    expect(parseElement('k:{"containerPort":80,"protocol":"TCP"}')).toEqual({ kind: 'key', fields: { containerPort: 80, protocol: 'TCP' } });
    expect(parseElement('v:"x"')).toEqual({ kind: 'value', value: 'x' });
    expect(parseElement('i:3')).toEqual({ kind: 'index', index: 3 });
    expect(parseElement('i:-1')).toBeUndefined();
    expect(parseElement('k:[1]')).toBeUndefined();
    expect(parseElement('x:1')).toBeUndefined();
  });
});

describe('ownedPaths', () => {
  it('resolves list-map keys, set values and indexes against the object', () => {
    const obj = { spec: { finalizers: ['a', 'b'], args: ['x', 'y'] } };
    expect(ownedPaths({ 'f:spec': { 'f:finalizers': { 'v:"b"': {} }, 'f:args': { 'i:1': {} } } }, obj)).toEqual([
      { display: '.spec.finalizers[="b"]', path: ['spec', 'finalizers', 1], leaf: true },
      { display: '.spec.args[1]', path: ['spec', 'args', 1], leaf: true },
    ]);
  });
  it('prints paths as the server does and flags fields the object lacks', () => {
    expect(entryPaths(apply)).toContain('.spec.template.spec.containers[name="app"].ports[containerPort=80,protocol="TCP"].protocol');
    expect(unresolvedPaths(editor, deployment)).toEqual(['.spec.template.spec.containers[name="gone"]']);
  });
});

describe('lineOwners', () => {
  const lines = yamlLines(deployment);
  const owners = lineOwners(lines, [apply, hpa, editor], deployment);
  const byText = (t: string) => owners[lines.findIndex((l) => l.text === t)];

  it('shows shared ownership of a field', () => {
    expect(byText('  replicas: 3')).toEqual([0, 1]);
  });
  it('gives list items to the manager of their key, and leaves to their owner', () => {
    expect(byText('        - name: app')).toEqual([0]);
    expect(byText('          image: nginx')).toEqual([0]);
    expect(byText('        - name: side')).toEqual([2]);
    expect(byText('          image: busybox')).toEqual([2]);
    expect(byText('            - containerPort: 80')).toEqual([0]);
  });
  it('an atomic leaf owns everything under it; bare parents are owned by nobody', () => {
    expect(byText('      app: web')).toEqual([0]);
    expect(byText('  selector:')).toEqual([0]);
    expect(byText('    matchLabels:')).toEqual([0]);
    expect(byText('spec:')).toEqual([]);
    expect(byText('  labels:')).toEqual([]);
    expect(byText('    tier: fe')).toEqual([2]);
    expect(byText('  conditions: []')).toEqual([]);
  });
});

describe('helpers', () => {
  it('labels entries and strips managedFields', () => {
    expect(entryLabel(hpa)).toBe('hpa (Update, scale)');
    expect(entryLabel(apply)).toBe('kubectl (Apply)');
    expect(withoutManagedFields({ metadata: { name: 'a', managedFields: [apply] } })).toEqual({ metadata: { name: 'a' } });
  });
});
