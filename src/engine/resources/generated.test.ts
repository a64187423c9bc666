// The committed module generated/builtins.ts is the project's vendored copy of the v1.33 schema facts; these
// tests check it (and the generator's trimming rules) without reading anything outside the repository.
import { describe, expect, it } from 'vitest';
import { assertSameFields, generate } from '../../../scripts/gen-builtins.js';
import { builtins } from './generated/builtins.js';

const APIEXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

describe('generated built-in facts', () => {
  it('serves 60 resources (53 stored, 7 never stored) and keeps the definitions they reach', () => {
    expect(builtins.resources).toHaveLength(60);
    expect(Object.keys(builtins.definitions).length).toBeGreaterThan(300);
    for (const r of builtins.resources) {
      expect(builtins.definitions[r.definition], r.definition).toBeDefined();
      // the create-only reviews have no list
      if (r.verbs.includes('list')) expect(builtins.definitions[r.listDefinition], r.listDefinition).toBeDefined();
      else expect(r.listDefinition).toBe('');
    }
  });

  it('keeps every field named `description` (a field, not documentation)', () => {
    const props = (name: string) => Object.keys(builtins.definitions[name].properties ?? {});
    expect(props(`${APIEXT}.JSONSchemaProps`)).toContain('description');
    expect(props(`${APIEXT}.JSONSchemaProps`)).toEqual(expect.arrayContaining(['title', 'example', 'externalDocs', 'nullable', 'x-kubernetes-validations']));
    expect(props(`${APIEXT}.ExternalDocumentation`)).toEqual(['description', 'url']);
    expect(props(`${APIEXT}.CustomResourceColumnDefinition`)).toContain('description');
    expect(props('io.k8s.api.scheduling.v1.PriorityClass')).toContain('description');
  });

  it('the generator drops documentation and keeps every property, whatever its name', () => {
    const swagger = miniSwagger();
    const { source } = generate(swagger, { served: [{ group: 'scheduling.k8s.io', version: 'v1', plural: 'priorityclasses' }], extraDefinitions: [] });
    const data = JSON.parse(source.slice(source.indexOf('= ') + 2, source.lastIndexOf(';')));
    const pc = data.definitions['io.k8s.api.scheduling.v1.PriorityClass'];
    expect(Object.keys(pc.properties)).toEqual(['apiVersion', 'description', 'kind', 'metadata', 'type', 'value']);
    expect(pc.properties.description).toEqual({ type: 'string' });
    expect(pc.description).toBeUndefined();
    expect(pc.properties.value.description).toBeUndefined();
    expect(source).not.toContain('prose');
  });

  it('refuses a trimming that would lose a field', () => {
    expect(() => assertSameFields('X', { properties: { description: { type: 'string' } } }, { properties: {} })).toThrow('trimming lost the field X.description');
    expect(() => assertSameFields('X', { properties: { a: { items: { properties: { b: {} } } } } }, { properties: { a: { items: { properties: {} } } } })).toThrow('X.a.items.b');
  });
});

/** A swagger document with only what the generator reads: the served PriorityClass and the kinds it must find. */
function miniSwagger() {
  const definitions: Record<string, unknown> = {
    'io.k8s.api.scheduling.v1.PriorityClass': {
      description: 'prose about the kind',
      type: 'object',
      required: ['value'],
      properties: {
        apiVersion: { type: 'string', description: 'prose' },
        description: { type: 'string', description: 'prose about a field called description' },
        kind: { type: 'string' },
        metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', description: 'prose' },
        type: { type: 'string' },
        value: { type: 'integer', format: 'int32', description: 'prose' },
      },
      'x-kubernetes-group-version-kind': [{ group: 'scheduling.k8s.io', kind: 'PriorityClass', version: 'v1' }],
    },
    'io.k8s.api.scheduling.v1.PriorityClassList': { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/definitions/io.k8s.api.scheduling.v1.PriorityClass' } } } },
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', properties: { name: { type: 'string' } } },
  };
  const ok = (ref: string) => ({ responses: { '200': { schema: { $ref: `#/definitions/${ref}` } } } });
  const paths = {
    '/apis/scheduling.k8s.io/v1/priorityclasses': { get: { ...ok('io.k8s.api.scheduling.v1.PriorityClassList'), 'x-kubernetes-action': 'list' } },
    '/apis/scheduling.k8s.io/v1/priorityclasses/{name}': {
      get: { ...ok('io.k8s.api.scheduling.v1.PriorityClass'), 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': { group: 'scheduling.k8s.io', kind: 'PriorityClass', version: 'v1' } },
    },
  };
  return { paths, definitions };
}
