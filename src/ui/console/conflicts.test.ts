import { describe, expect, it } from 'vitest';
import { adoptFields, dropFields, locate, parseConflicts, withForce, withoutQuery } from './conflicts.js';

const status = {
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  code: 409,
  reason: 'Conflict',
  message: 'Apply failed with 2 conflicts: ...',
  details: {
    causes: [
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' },
      { reason: 'FieldManagerConflict', message: 'conflict with "m3" using apps/v1', field: '.spec.template.spec.containers[name="app"].image' },
    ],
  },
};

const manifest = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web', app: 'x' } },
  spec: {
    replicas: 3,
    template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }, { name: 'side', image: 'busybox' }] } },
    ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }],
    nums: [1, 2],
  },
};

describe('parseConflicts', () => {
  it('reads field and owner of each FieldManagerConflict cause', () => {
    expect(parseConflicts(status)).toEqual([
      { field: '.spec.replicas', manager: 'kubectl', using: undefined, message: 'conflict with "kubectl"' },
      { field: '.spec.template.spec.containers[name="app"].image', manager: 'm3', using: 'apps/v1', message: 'conflict with "m3" using apps/v1' },
    ]);
  });
  it('is undefined for other errors', () => {
    expect(parseConflicts({ ...status, code: 422 })).toBeUndefined();
    expect(parseConflicts({ kind: 'Status', code: 409, details: { causes: [] } })).toBeUndefined();
  });
});

describe('field paths', () => {
  it('walks keys with dots, associative keys, set values and indexes', () => {
    expect(locate(manifest, '.metadata.labels.app.kubernetes.io/name')?.key).toBe('app.kubernetes.io/name');
    expect(locate(manifest, '.metadata.labels.app')?.key).toBe('app');
    expect(locate(manifest, '.spec.template.spec.containers[name="side"].image')?.parent).toEqual({ name: 'side', image: 'busybox' });
    expect(locate(manifest, '.spec.ports[containerPort=80,protocol="TCP"].name')?.key).toBe('name');
    expect(locate(manifest, '.spec.nums[=2]')?.key).toBe(1);
    expect(locate(manifest, '.spec.nums[0]')?.key).toBe(0);
    expect(locate(manifest, '.spec.missing.x')).toBeUndefined();
    expect(locate(manifest, '.spec.template.spec.containers[name="none"]')).toBeUndefined();
  });

  it('drop removes the fields (and maps left empty), without touching the input', () => {
    const out = dropFields(manifest, ['.spec.replicas', '.spec.template.spec.containers[name="app"].image', '.metadata.labels.app.kubernetes.io/name']) as typeof manifest;
    expect(out.spec.replicas).toBeUndefined();
    expect(out.spec.template.spec.containers).toEqual([{ name: 'app' }, { name: 'side', image: 'busybox' }]);
    expect(out.metadata.labels).toEqual({ app: 'x' });
    expect(manifest.spec.replicas).toBe(3);
    const emptied = dropFields({ spec: { a: { b: 1 }, c: 2 } }, ['.spec.a.b']);
    expect(emptied).toEqual({ spec: { c: 2 } });
  });

  it('adopt copies the live values, creating missing maps', () => {
    const live = { spec: { replicas: 5, template: { spec: { containers: [{ name: 'app', image: 'nginx:1' }] } }, strategy: { type: 'Recreate' } } };
    const out = adoptFields(manifest, live, ['.spec.replicas', '.spec.template.spec.containers[name="app"].image', '.spec.strategy.type']) as Record<string, any>;
    expect(out.spec.replicas).toBe(5);
    expect(out.spec.template.spec.containers[0]).toEqual({ name: 'app', image: 'nginx:1' });
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    expect(out.spec.template.spec.containers[1]).toEqual({ name: 'side', image: 'busybox' });
  });

  it('force and object URLs of a request path', () => {
    expect(withForce('/api/v1/namespaces/d/configmaps/x?fieldManager=me')).toBe('/api/v1/namespaces/d/configmaps/x?fieldManager=me&force=true');
    expect(withForce('/x')).toBe('/x?force=true');
    expect(withoutQuery('/x?a=b')).toBe('/x');
  });
});
