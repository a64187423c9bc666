// Real kubectl 1.33 against the Node host with CRDs in the shapes published projects use (written for these
// tests): a schema over 256 KB full of descriptions, CEL rules under unbounded lists, preserve-unknown-fields,
// and several versions with deprecated ones. Each installs under kubectl's default (strict) validation,
// applies server-side twice, comes back unchanged, explains, and serves custom resources that can be
// created, applied again and patched without warnings.
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

type Json = Record<string, unknown>;

function crd(plural: string, kind: string, versions: Json[]): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` }, versions },
  };
}

// A manual with many settings, each documented at length: the schema is over 256 KB, so its client-side
// apply annotation (a copy of the whole object) is over the 262144-byte limit of all annotations.
const WORDS = ['the', 'setting', 'controls', 'how', 'often', 'a', 'worker', 'retries', 'when', 'its', 'queue', 'is', 'full', 'and', 'what', 'it', 'reports', 'back'];
function prose(i: number, n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(WORDS[(i * 7 + k * 3) % WORDS.length]);
  return `Setting ${i}: ${out.join(' ')}.`;
}
function manualSchema(): Json {
  const settings: Record<string, Json> = {};
  for (let i = 0; i < 420; i++) {
    settings[`setting${i}`] = { type: 'string', description: prose(i, 120), maxLength: 64 };
  }
  return {
    type: 'object',
    description: 'A Manual documents every setting of a worker.',
    properties: {
      spec: { type: 'object', description: 'The settings of the worker, each with its own documentation.', properties: settings },
      status: { type: 'object', description: 'What the worker last reported.', properties: { phase: { type: 'string', description: 'Where the worker is.' } } },
    },
  };
}
const manual = (plural: string, kind: string) =>
  crd(plural, kind, [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: manualSchema() }, subresources: { status: {} } }]);

// A pipeline whose steps name the resources they need: a rule on every selector, under two unbounded lists.
const selector = {
  type: 'object',
  description: 'Picks resources by name or by labels, not both.',
  properties: {
    kind: { type: 'string', description: 'The kind of the resources.' },
    name: { type: 'string', description: 'One resource by name.' },
    matchLabels: { type: 'object', additionalProperties: { type: 'string' }, description: 'Resources by labels.' },
  },
  required: ['kind'],
  'x-kubernetes-validations': [{ rule: '!(has(self.name) && has(self.matchLabels))', message: 'name and matchLabels are mutually exclusive' }],
};
const pipelines = crd('pipelines', 'Pipeline', [{
  name: 'v1',
  served: true,
  storage: true,
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            steps: {
              type: 'array',
              description: 'The steps, in order.',
              items: {
                type: 'object',
                required: ['step'],
                properties: {
                  step: { type: 'string', description: 'The step name.' },
                  needs: { type: 'array', items: selector, description: 'Resources the step reads.' },
                  input: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description: 'Free-form input of the step.' },
                },
                'x-kubernetes-validations': [{ rule: "self.step != ''", message: 'a step has a name' }],
              },
            },
          },
        },
      },
    },
  },
}]);

// A blob: anything goes under its root.
const blobs = crd('blobs', 'Blob', [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }]);

// A gizmo served in three versions, two of them deprecated.
const gizmoSchema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
const gizmos = crd('gizmos', 'Gizmo', [
  { name: 'v1alpha1', served: true, storage: false, deprecated: true, deprecationWarning: 'example.com/v1alpha1 Gizmo is gone in 2027; use example.com/v1', schema: gizmoSchema },
  { name: 'v1beta1', served: true, storage: false, deprecated: true, schema: gizmoSchema },
  { name: 'v1', served: true, storage: true, schema: gizmoSchema },
]);

const yaml = (o: unknown) => dump(o, { lineWidth: -1, noRefs: true });

suite('kubectl (published CRD shapes)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('create -f under strict validation, then apply --server-side twice', async () => {
    expect(yaml(manual('manuals', 'Manual')).length).toBeGreaterThan(256 * 1024);
    for (const c of [manual('manuals', 'Manual'), pipelines, blobs, gizmos]) {
      const name = (c.metadata as Json).name as string;
      let r = await k.kubectl(['create', '-f', '-'], { input: yaml(c) });
      expect(r.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io/${name} created`);
      expect(r.stderr).toBe('');
      for (let i = 0; i < 2; i++) {
        r = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: yaml(c) });
        expect(r.stdout.trim()).toBe(`customresourcedefinition.apiextensions.k8s.io/${name} serverside-applied`);
        expect(r.stderr).toBe('');
      }
    }
  });

  it('comes back from get crd -o json with its schema unchanged', async () => {
    for (const c of [manual('manuals', 'Manual'), pipelines, blobs, gizmos]) {
      const r = await k.kubectl(['get', 'crd', (c.metadata as Json).name as string, '-o', 'json']);
      const got = JSON.parse(r.stdout);
      const sent = (c.spec as { versions: Json[] }).versions;
      expect(got.spec.versions.map((v: Json) => v.schema)).toEqual(sent.map((v) => v.schema));
    }
  });

  it('client-side apply of the large one is refused: its annotation would be too long', async () => {
    const r = await k.kubectl(['apply', '-f', '-'], { input: yaml(manual('handbooks', 'Handbook')), allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('The CustomResourceDefinition "handbooks.example.com" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes');
    const g = await k.kubectl(['get', 'crd', 'handbooks.example.com'], { allowFail: true });
    expect(g.stderr.trim()).toBe('Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "handbooks.example.com" not found');
  });

  it('explain shows the CRD descriptions at two levels', async () => {
    let r = await k.kubectl(['explain', 'manuals.spec']);
    expect(r.stdout).toContain('FIELD: spec <Object>');
    expect(r.stdout).toContain('The settings of the worker, each with its own documentation.');
    expect(r.stdout).toMatch(/setting7\s+<string>\n\s+Setting 7: /);
    r = await k.kubectl(['explain', 'manuals.spec.setting7']);
    expect(r.stdout).toContain('FIELD: setting7 <string>');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(prose(7, 120));
    r = await k.kubectl(['explain', 'pipelines.spec.steps.needs']);
    expect(r.stdout).toContain('Resources the step reads.');
    expect(r.stdout).toMatch(/matchLabels\s+<map\[string\]string>\n\s+Resources by labels\./);
  });

  it('custom resources under CEL rules: created, applied again, patched; the rule still refuses', async () => {
    const p = (image: string) => yaml({
      apiVersion: 'example.com/v1',
      kind: 'Pipeline',
      metadata: { name: 'build' },
      spec: { steps: [{ step: 'fetch', needs: [{ kind: 'Secret', name: 'token' }, { kind: 'ConfigMap', matchLabels: { app: 'build' } }], input: { image, any: { deep: [1] } } }] },
    });
    let r = await k.kubectl(['apply', '-f', '-'], { input: p('a') });
    expect(r.stdout.trim()).toBe('pipeline.example.com/build created');
    r = await k.kubectl(['apply', '-f', '-'], { input: p('b') });
    expect(r.stdout.trim()).toBe('pipeline.example.com/build configured');
    expect(r.stderr).toBe('');
    for (let i = 0; i < 2; i++) {
      r = await k.kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: p('c') });
      expect(r.stdout.trim()).toBe('pipeline.example.com/build serverside-applied');
      expect(r.stderr).toBe('');
    }
    r = await k.kubectl(['patch', 'pipeline', 'build', '--type', 'merge', '-p', '{"metadata":{"labels":{"team":"a"}}}']);
    expect(r.stdout.trim()).toBe('pipeline.example.com/build patched');
    expect(r.stderr).toBe('');
    r = await k.kubectl(['patch', 'pipeline', 'build', '--type', 'json', '-p', '[{"op":"add","path":"/spec/steps/0/needs/0/matchLabels","value":{"a":"b"}}]'], { allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('spec.steps[0].needs[0]: Invalid value: "object": name and matchLabels are mutually exclusive');
  });

  it('custom resources under preserve-unknown-fields: applied twice both ways and patched, with no warnings', async () => {
    const b = (n: number) => yaml({ apiVersion: 'example.com/v1', kind: 'Blob', metadata: { name: 'b1' }, spec: { n, nested: { list: [n, { x: n }] } }, extra: 'kept' });
    let r = await k.kubectl(['apply', '-f', '-'], { input: b(1) });
    expect(r.stdout.trim()).toBe('blob.example.com/b1 created');
    r = await k.kubectl(['apply', '-f', '-'], { input: b(2) });
    expect(r.stdout.trim()).toBe('blob.example.com/b1 configured');
    expect(r.stderr).toBe('');
    for (let i = 3; i < 5; i++) {
      r = await k.kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: b(i) });
      expect(r.stdout.trim()).toBe('blob.example.com/b1 serverside-applied');
      expect(r.stderr).toBe('');
    }
    r = await k.kubectl(['apply', '-f', '-'], { input: b(5) });
    expect(r.stderr).toBe('');
    r = await k.kubectl(['patch', 'blob', 'b1', '--type', 'merge', '-p', '{"spec":{"added":true}}']);
    expect(r.stdout.trim()).toBe('blob.example.com/b1 patched');
    expect(r.stderr).toBe('');
    r = await k.kubectl(['get', 'blob', 'b1', '-o', 'json']);
    const got = JSON.parse(r.stdout);
    expect(got.spec).toEqual({ n: 5, nested: { list: [5, { x: 5 }] }, added: true });
    expect(got.extra).toBe('kept');
  });

  it('deprecated versions: kubectl prints the warning on every request', async () => {
    const g = (v: string) => yaml({ apiVersion: `example.com/${v}`, kind: 'Gizmo', metadata: { name: `g-${v}` }, spec: { size: 1 } });
    const DEFAULT = 'Warning: example.com/v1beta1 Gizmo is deprecated; use example.com/v1 Gizmo';
    let r = await k.kubectl(['create', '-f', '-'], { input: g('v1beta1') });
    expect(r.stdout.trim()).toBe('gizmo.example.com/g-v1beta1 created');
    expect(r.stderr.trim()).toBe(DEFAULT);
    r = await k.kubectl(['get', 'gizmos.v1beta1.example.com']);
    expect(r.stderr.trim()).toBe(DEFAULT);
    r = await k.kubectl(['patch', 'gizmos.v1beta1.example.com', 'g-v1beta1', '--type', 'merge', '-p', '{"spec":{"size":2}}']);
    expect(r.stderr.trim()).toBe(DEFAULT);
    r = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: g('v1alpha1') });
    expect(r.stderr.trim()).toBe('Warning: example.com/v1alpha1 Gizmo is gone in 2027; use example.com/v1');
    r = await k.kubectl(['delete', 'gizmos.v1beta1.example.com', 'g-v1beta1']);
    expect(r.stderr.trim()).toBe(DEFAULT);
    r = await k.kubectl(['get', 'gizmos.v1.example.com']);
    expect(r.stderr).toBe('');
  });
});
