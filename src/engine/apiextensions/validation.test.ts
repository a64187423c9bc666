// CRD validation, custom resource schema validation, defaulting and CEL validation rules over HTTP, with
// the real v1.33 server's messages.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GADGETS = '/apis/example.com/v1/namespaces/default/gadgets';

function crd(schema: unknown, specOverrides: Record<string, unknown> = {}, version: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...version }],
      ...specOverrides,
    },
  };
}
const withSpec = (spec: Record<string, unknown>) => ({ type: 'object', properties: { spec: { type: 'object', ...spec } } });
const gadget = (name: string, spec: unknown) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name }, spec });

describe('CRD validation', () => {
  it('names, group, scope and versions', async () => {
    const r = await c.req('POST', CRDS, {
      ...crd({ type: 'object' }, { group: 'example', scope: 'Global', names: { plural: 'Gadgets', kind: 'Gadget', listKind: 'Gadget' } }),
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "gadgets.example.com" is invalid: [' +
        'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group, ' +
        'spec.group: Invalid value: "example": should be a domain with at least one dot, ' +
        'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced", ' +
        "spec.names.plural: Invalid value: \"Gadgets\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), " +
        'spec.names.listKind: Invalid value: "Gadget": kind and listKind may not be the same]',
    );
    expect(r.body.details.causes[0]).toEqual({ reason: 'FieldValueInvalid', message: 'Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group', field: 'metadata.name' });
  });

  it('protected groups need the api-approved annotation', async () => {
    const body = crd({ type: 'object' }, { group: 'stable.k8s.io' });
    body.metadata.name = 'gadgets.stable.k8s.io';
    let r = await c.req('POST', CRDS, body);
    expect(r.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "gadgets.stable.k8s.io" is invalid: metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    );
    r = await c.req('POST', CRDS, { ...body, metadata: { ...body.metadata, annotations: { 'api-approved.kubernetes.io': 'maybe' } } });
    expect(r.body.details.causes[0].message).toBe(
      'Invalid value: "maybe": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    );
    r = await c.req('POST', CRDS, { ...body, metadata: { ...body.metadata, annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/1' } } });
    expect(r.status).toBe(201);
  });

  it('exactly one storage version and unique names', async () => {
    const base = crd({ type: 'object' });
    base.spec.versions = [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
    ];
    const r = await c.req('POST', CRDS, base);
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => [x.field, x.message.replace(/\{.*\}/, '{...}')])).toEqual([
      ['spec.versions', 'Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must contain unique version names'],
      ['spec.versions', 'Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must have exactly one version marked as storage version'],
      // the second v1 is a storage version missing from storedVersions once the first one matched it
      ['status.storedVersions', 'Invalid value: []string{...}: must have the storage version v1'],
    ]);
  });

  it('schemas are required; structural schema rules', async () => {
    const noSchema = crd(undefined);
    delete (noSchema.spec.versions[0] as Record<string, unknown>).schema;
    let r = await c.req('POST', CRDS, noSchema);
    expect(r.body.message).toBe('CustomResourceDefinition.apiextensions.k8s.io "gadgets.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required');

    r = await c.req('POST', CRDS, crd({ type: 'object', properties: { spec: { properties: { a: { type: 'array' } } }, metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }));
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => `${x.field}: ${x.message}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
      'spec.validation.openAPIV3Schema.properties[spec].properties[a].items: Required value: must be specified',
      'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('with the status subresource only some fields are allowed at the root', async () => {
    const r = await c.req('POST', CRDS, crd({ type: 'object', minProperties: 1 }, {}, { subresources: { status: {} } }));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "gadgets.example.com" is invalid: spec.validation.openAPIV3Schema: Invalid value: apiextensions.JSONSchemaProps{...}: ' +
        'only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
    );
  });

  it('x-kubernetes list and map markers must be consistent', async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['k'] },
        b: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k', 'o'], items: { type: 'object', properties: { k: { type: 'string' }, o: { type: 'object' } } } },
        c: { type: 'string', 'x-kubernetes-map-type': 'granular' },
        d: { type: 'array', 'x-kubernetes-list-type': 'bag', items: { type: 'string' } },
        e: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    })));
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => `${x.field}: ${x.message}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[e].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true',
      'spec.validation.openAPIV3Schema.properties[spec].properties[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty',
      'spec.validation.openAPIV3Schema.properties[spec].properties[b].items.properties[o].type: Invalid value: "object": must be a scalar type if parent array\'s x-kubernetes-list-type is map',
      'spec.validation.openAPIV3Schema.properties[spec].properties[b].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
      'spec.validation.openAPIV3Schema.properties[spec].properties[b].items.properties[o].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
      'spec.validation.openAPIV3Schema.properties[spec].properties[c].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified',
      'spec.validation.openAPIV3Schema.properties[spec].properties[d].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"',
    ]);
  });

  it('defaults must validate against their schema', async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        size: { type: 'integer', default: 'big' },
        mode: { type: 'string', enum: ['a', 'b'], default: 'c' },
        opts: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } },
      },
    })));
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => `${x.field}: ${x.message}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: "string":  in body must be of type integer: "string"',
      'spec.validation.openAPIV3Schema.properties[spec].properties[mode].default: Unsupported value: "c": supported values: "a", "b"',
      'spec.validation.openAPIV3Schema.properties[spec].properties[opts].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields',
    ]);
  });

  it('validation rules that do not compile are rejected with the compiler output', async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({ properties: { replicas: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.replicas >' }, { rule: 'self.replica > 1', message: 'x' }] })));
    expect(r.status).toBe(422);
    expect(r.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
        message:
          'Invalid value: apiextensions.ValidationRule{Rule:"self.replicas >", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
          "compilation failed: ERROR: <input>:1:16: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.replicas >\n | ...............^",
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule',
        message:
          'Invalid value: apiextensions.ValidationRule{Rule:"self.replica > 1", Message:"x", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
          "compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 1\n | ....^",
      },
    ]);
  });

  it('rules must be bool, messageExpressions strings', async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: { n: { type: 'integer' } },
      'x-kubernetes-validations': [{ rule: 'self.n + 1' }, { rule: 'self.n > 1', messageExpression: 'self.n' }, { rule: 'self.n > 1', messageExpression: 'self.m' }],
    })));
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => `${x.field}: ${x.message.replace(/apiextensions\.ValidationRule\{[^}]*\}/, 'RULE')}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: RULE: cel expression must evaluate to a bool',
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].messageExpression: Invalid value: RULE: messageExpression must evaluate to a string',
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].messageExpression: Invalid value: RULE: messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'm'\n | self.m\n | ....^",
    ]);
  });

  it('rules over the estimated cost limit are forbidden; other rule field checks', async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        list: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x == y))' }] },
        tags: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
        n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', optionalOldSelf: true, reason: 'Bad', message: '', fieldPath: '.x' }] },
      },
    })));
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => `${x.field}: ${x.message}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[n].x-kubernetes-validations[0].message: Invalid value: "": message must be non-empty if specified',
      'spec.validation.openAPIV3Schema.properties[spec].properties[n].x-kubernetes-validations[0].reason: Unsupported value: "Bad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
      'spec.validation.openAPIV3Schema.properties[spec].properties[n].x-kubernetes-validations[0].fieldPath: Invalid value: ".x": fieldPath must be a valid path',
    ]);
    const ok = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        list: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x == y))' }] },
        tags: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
        n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', optionalOldSelf: true }] },
      },
    })));
    // (the real server walks properties in Go map order; here they come in declaration order)
    const TOO_MUCH = 'exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
    expect(ok.body.details.causes.map((x: any) => `${x.field}: ${x.message}`)).toEqual([
      `spec.validation.openAPIV3Schema.properties[spec].properties[list].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost ${TOO_MUCH}`,
      `spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost ${TOO_MUCH}`,
      'spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[tags]',
      'spec.validation.openAPIV3Schema.properties[spec].properties[n].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule',
      'spec.validation.openAPIV3Schema.properties[spec].properties[list].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      'spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema ${TOO_MUCH}`,
    ]);
  });

  it('a messageExpression converting an unbounded value is over the estimate (kubernetes#124234)', async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        config: {
          type: 'object',
          'x-kubernetes-validations': [{ messageExpression: "'invalid attempts: ' + string(self.attempts)", rule: 'self.attempts >= 0' }],
          properties: { attempts: { type: 'integer', maximum: 2147483647, minimum: -2147483648 } },
        },
      },
    })));
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => `${x.field}: ${x.message}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[config].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      'spec.validation.openAPIV3Schema.properties[spec].properties[config].x-kubernetes-validations[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      'spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    ]);
  });

  it('a new storage version is added to status.storedVersions; removing a stored version is refused', async () => {
    const two = crd({ type: 'object' });
    two.spec.versions = [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
    ];
    let r = await c.req('POST', CRDS, two);
    expect(r.status).toBe(201);
    expect(r.body.status.storedVersions).toEqual(['v1']);
    r.body.spec.versions[0].storage = false;
    r.body.spec.versions[1].storage = true;
    r = await c.req('PUT', `${CRDS}/gadgets.example.com`, r.body);
    expect(r.status).toBe(200);
    expect(r.body.status.storedVersions).toEqual(['v1', 'v2']);
    r.body.spec.versions = [r.body.spec.versions[1]];
    r = await c.req('PUT', `${CRDS}/gadgets.example.com`, r.body);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "gadgets.example.com" is invalid: status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    );
  });

  it('scope and kind are immutable once established', async () => {
    const created = (await c.req('POST', CRDS, crd({ type: 'object' }))).body;
    created.spec.scope = 'Cluster';
    created.spec.names.kind = 'Widget';
    created.spec.names.listKind = 'WidgetList';
    const r = await c.req('PUT', `${CRDS}/gadgets.example.com`, created);
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => `${x.field}: ${x.message}`)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Widget": field is immutable',
    ]);
  });
});

describe('names of a group (naming controller)', () => {
  it('a name already accepted by another CRD of the group is not accepted; the CRD is not established', async () => {
    const first = crd({ type: 'object' });
    (first.spec.names as Record<string, unknown>).shortNames = ['gd'];
    expect((await c.req('POST', CRDS, first)).status).toBe(201);
    const second = crd({ type: 'object' }, { names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', shortNames: ['gd'] } });
    second.metadata.name = 'gizmos.example.com';
    const r = await c.req('POST', CRDS, second);
    expect(r.status).toBe(201);
    expect(r.body.status.conditions.map((x: any) => [x.type, x.status, x.reason, x.message])).toEqual([
      ['NamesAccepted', 'False', 'ShortNamesConflict', '"gd" is already in use'],
      ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
    ]);
    expect(r.body.status.acceptedNames).toEqual({ plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' });
    expect((await c.req('GET', '/apis/example.com/v1/gizmos')).status).toBe(404);
    // renaming the short name resolves the conflict
    r.body.spec.names.shortNames = ['gz'];
    const fixed = await c.req('PUT', `${CRDS}/gizmos.example.com`, r.body);
    expect(fixed.body.status.conditions.map((x: any) => [x.type, x.status, x.reason])).toEqual([
      ['NamesAccepted', 'True', 'NoConflicts'],
      ['Established', 'True', 'InitialNamesAccepted'],
    ]);
    expect((await c.req('GET', '/apis/example.com/v1/gizmos')).status).toBe(200);
  });
});

describe('names freed by a deleted CRD', () => {
  it('a CRD waiting for its names is accepted once the other CRD is gone', async () => {
    const first = crd({ type: 'object' });
    (first.spec.names as Record<string, unknown>).shortNames = ['gd'];
    await c.req('POST', CRDS, first);
    const second = crd({ type: 'object' }, { names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', shortNames: ['gd'] } });
    second.metadata.name = 'gizmos.example.com';
    expect((await c.req('POST', CRDS, second)).body.status.conditions[0].status).toBe('False');
    await c.req('DELETE', `${CRDS}/gadgets.example.com`);
    await c.env.advance(10);
    const after = await c.req('GET', `${CRDS}/gizmos.example.com`);
    expect(after.body.status.conditions.map((x: any) => [x.type, x.status, x.reason])).toEqual([
      ['NamesAccepted', 'True', 'NoConflicts'],
      ['Established', 'True', 'InitialNamesAccepted'],
    ]);
    expect(after.body.status.acceptedNames.shortNames).toEqual(['gd']);
    expect((await c.req('GET', '/apis/example.com/v1/gizmos')).status).toBe(200);
  });
});

describe('custom resource schema validation', () => {
  beforeEach(async () => {
    const r = await c.req('POST', CRDS, crd({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          required: ['size'],
          properties: {
            size: { type: 'integer', minimum: 1, maximum: 10 },
            name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' },
            mode: { type: 'string', enum: ['fast', 'slow'] },
            id: { type: 'string', format: 'uuid' },
            port: { 'x-kubernetes-int-or-string': true },
            note: { type: 'string', nullable: true },
            tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', maxItems: 3 },
            ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } } } },
            template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
            replicas: { type: 'integer', default: 1 },
          },
        },
      },
    }));
    expect(r.status).toBe(201);
  });

  it('a type error answers 422 with the real body', async () => {
    const r = await c.req('POST', GADGETS, gadget('g1', { size: 'string' }));
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Gadget.example.com "g1" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
      reason: 'Invalid',
      details: {
        name: 'g1',
        group: 'example.com',
        kind: 'Gadget',
        causes: [{ reason: 'FieldValueTypeInvalid', message: 'Invalid value: "string": spec.size in body must be of type integer: "string"', field: 'spec.size' }],
      },
      code: 422,
    });
  });

  it('one cause per error', async () => {
    const r = await c.req('POST', GADGETS, gadget('g2', {
      size: 11, name: 'ABCDEFG', mode: 'medium', id: 'not-a-uuid', port: true, note: null,
      tags: ['a', 'b', 'a', 'c'], ports: [{ name: 'http' }, { name: 'http' }], template: { metadata: { name: 'x' } },
    }));
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => [x.reason, x.field, x.message])).toEqual([
      ['FieldValueInvalid', 'spec.size', 'Invalid value: 11: spec.size in body should be less than or equal to 10'],
      ['FieldValueTooLong', 'spec.name', 'Too long: may not be more than 5 bytes'],
      ['FieldValueInvalid', 'spec.name', "Invalid value: \"ABCDEFG\": spec.name in body should match '^[a-z]+$'"],
      ['FieldValueNotSupported', 'spec.mode', 'Unsupported value: "medium": supported values: "fast", "slow"'],
      ['FieldValueTypeInvalid', 'spec.id', 'Invalid value: "not-a-uuid": spec.id in body must be of type uuid: "not-a-uuid"'],
      ['FieldValueTypeInvalid', 'spec.port', 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"'],
      ['FieldValueTooMany', 'spec.tags', 'Too many: 4: must have at most 3 items'],
      ['FieldValueRequired', 'spec.template.apiVersion', 'Required value: must not be empty'],
      ['FieldValueRequired', 'spec.template.kind', 'Required value: must not be empty'],
      ['FieldValueDuplicate', 'spec.tags[2]', 'Duplicate value: "a"'],
      ['FieldValueDuplicate', 'spec.ports[1]', 'Duplicate value: map[string]interface {}{"name":"http"}'],
    ]);
  });

  it('required fields; nulls of non-nullable fields without default are dropped', async () => {
    let r = await c.req('POST', GADGETS, gadget('g3', { name: 'abc' }));
    expect(r.body.message).toBe('Gadget.example.com "g3" is invalid: spec.size: Required value');
    r = await c.req('POST', GADGETS, gadget('g3', { size: 2, name: null, note: null }));
    expect(r.status).toBe(201);
    expect(r.body.spec).toEqual({ size: 2, note: null, replicas: 1 });
  });

  it('defaults apply on create and on update, inside list items too', async () => {
    const r = await c.req('POST', GADGETS, gadget('g4', { size: 2, ports: [{ name: 'http' }, { name: 'dns', protocol: 'UDP' }] }));
    expect(r.status).toBe(201);
    expect(r.body.spec.replicas).toBe(1);
    expect(r.body.spec.ports).toEqual([{ name: 'http', protocol: 'TCP' }, { name: 'dns', protocol: 'UDP' }]);
    const u = await c.req('PUT', `${GADGETS}/g4`, { ...r.body, spec: { size: 3, ports: [{ name: 'x' }] } });
    expect(u.status).toBe(200);
    expect(u.body.spec).toEqual({ size: 3, ports: [{ name: 'x', protocol: 'TCP' }], replicas: 1 });
  });

  it('defaults added to the schema later apply on every read (old revisions too) and are stored by the next write', async () => {
    const created = await c.req('POST', GADGETS, gadget('g8', { size: 2 }));
    const cur = (await c.req('GET', `${CRDS}/gadgets.example.com`)).body;
    cur.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mode.default = 'fast';
    expect((await c.req('PUT', `${CRDS}/gadgets.example.com`, cur)).status).toBe(200);
    const patched = await c.req('PATCH', `${GADGETS}/g8`, { metadata: { labels: { a: 'b' } } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    expect(patched.body.spec).toEqual({ size: 2, replicas: 1, mode: 'fast' });
    // the storage decoder defaults what it reads, whatever its revision
    const old = await c.req('GET', `${GADGETS}?resourceVersion=${created.body.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(old.body.items[0].spec).toEqual({ size: 2, replicas: 1, mode: 'fast' });
    expect(old.body.items[0].metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
  });

  it('finalizer names that are not domain-qualified get warnings', async () => {
    const r = await c.req('POST', GADGETS, { ...gadget('g7', { size: 2 }), metadata: { name: 'g7', finalizers: ['example.com/cleanup', 'cleanup', 'my.cleanup'] } });
    expect(r.status).toBe(201);
    expect(r.headers.get('Warning')).toBe(
      '299 - "metadata.finalizers: \\"cleanup\\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers", ' +
        '299 - "metadata.finalizers: \\"my.cleanup\\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"',
    );
  });

  it('an update without resourceVersion is refused for custom resources', async () => {
    await c.req('POST', GADGETS, gadget('g5', { size: 2 }));
    const r = await c.req('PUT', `${GADGETS}/g5`, gadget('g5', { size: 3 }));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('gadgets.example.com "g5" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
  });

  it('ratcheting: an invalid value stored earlier may stay when unchanged', async () => {
    // tighten the schema after an object exists
    await c.req('POST', GADGETS, gadget('g6', { size: 2, name: 'abcde' }));
    const cur = (await c.req('GET', `${CRDS}/gadgets.example.com`)).body;
    cur.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.name.maxLength = 3;
    expect((await c.req('PUT', `${CRDS}/gadgets.example.com`, cur)).status).toBe(200);
    const obj = (await c.req('GET', `${GADGETS}/g6`)).body;
    expect((await c.req('PUT', `${GADGETS}/g6`, { ...obj, spec: { ...obj.spec, size: 4 } })).status).toBe(200);
    const bad = await c.req('PUT', `${GADGETS}/g6`, { ...obj, metadata: { ...obj.metadata, resourceVersion: undefined }, spec: { ...obj.spec, name: 'abcdx' } });
    expect(bad.status).toBe(422);
  });
});

describe('CEL validation rules', () => {
  beforeEach(async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({
      'x-kubernetes-validations': [
        { rule: 'self.min <= self.max', message: 'min must not exceed max' },
        { rule: 'self.max < 100', messageExpression: "'max too big for ' + self.name", reason: 'FieldValueForbidden', fieldPath: '.max' },
        { rule: "!has(self.mode) || self.mode != 'x'", reason: 'FieldValueRequired' },
        { rule: 'self.size == oldSelf.size', message: 'size is immutable' },
        { rule: 'oldSelf.hasValue() || self.min == 0', optionalOldSelf: true, message: 'min starts at 0' },
        { rule: 'self.labels["team"] != ""' },
      ],
      properties: {
        min: { type: 'integer' },
        max: { type: 'integer', maximum: 1000 },
        size: { type: 'integer' },
        mode: { type: 'string' },
        name: { type: 'string', maxLength: 10 },
        labels: { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 10 } },
        items: {
          type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 10 }, v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'v may only grow' }] } } },
        },
        words: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 1 }, 'x-kubernetes-validations': [{ rule: 'self.all(a, self.all(b, a == b || a != b))' }] },
      },
    })));
    expect(r.status).toBe(201);
  });

  const good = { min: 0, max: 5, size: 1, labels: { team: 'a' } };

  it('failing rules answer 422 with message, messageExpression, reason and fieldPath', async () => {
    const r = await c.req('POST', GADGETS, gadget('c1', { min: 300, max: 200, size: 1, mode: 'x', name: 'blue', labels: { team: 'a' } }));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Gadget.example.com "c1" is invalid: [spec: Invalid value: "object": min must not exceed max, spec.max: Forbidden: max too big for blue, ' +
        "spec: Required value: failed rule: !has(self.mode) || self.mode != 'x', spec: Invalid value: \"object\": min starts at 0]",
    );
    expect(r.body.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "object": min must not exceed max', field: 'spec' },
      { reason: 'FieldValueForbidden', message: 'Forbidden: max too big for blue', field: 'spec.max' },
      { reason: 'FieldValueRequired', message: "Required value: failed rule: !has(self.mode) || self.mode != 'x'", field: 'spec' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "object": min starts at 0', field: 'spec' },
    ]);
  });

  it('runtime errors are reported with the rule', async () => {
    const r = await c.req('POST', GADGETS, gadget('c2', { min: 0, max: 5, size: 1, labels: {} }));
    expect(r.body.message).toBe('Gadget.example.com "c2" is invalid: spec: Invalid value: "object": no such key: team evaluating rule: self.labels["team"] != ""');
  });

  it('schema errors that block rules add the "not checked" error', async () => {
    const r = await c.req('POST', GADGETS, gadget('c3', { ...good, max: 'many' }));
    expect(r.body.details.causes).toEqual([
      { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "string": spec.max in body must be of type integer: "string"', field: 'spec.max' },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        field: '<nil>',
      },
    ]);
  });

  it('transition rules run on update only, against the correlated old value', async () => {
    const created = await c.req('POST', GADGETS, gadget('c4', { ...good, items: [{ name: 'a', v: 5 }] }));
    expect(created.status).toBe(201);
    let r = await c.req('PUT', `${GADGETS}/c4`, { ...created.body, spec: { ...good, min: 1, size: 2, items: [{ name: 'b', v: 1 }, { name: 'a', v: 4 }] } });
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => `${x.field}: ${x.message}`)).toEqual([
      'spec: Invalid value: "object": size is immutable',
      'spec.items[1].v: Invalid value: "integer": v may only grow',
    ]);
    // optionalOldSelf rules see the old value on update: min may now change
    r = await c.req('PUT', `${GADGETS}/c4`, { ...created.body, spec: { ...good, min: 1, items: [{ name: 'a', v: 6 }] } });
    expect(r.status).toBe(200);
  });

  it('a rule over the per-expression runtime cost limit stops validation', async () => {
    const r = await c.req('POST', GADGETS, gadget('c5', { ...good, words: Array(1000).fill('a') }));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Gadget.example.com "c5" is invalid: spec.words: Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.all(a, self.all(b, a == b || a != b))',
    );
  });
});

describe('CEL rules at the resource root', () => {
  it('see apiVersion, kind and metadata.name', async () => {
    const schema = {
      type: 'object',
      'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('g-') && self.kind == 'Gadget' && self.apiVersion == 'example.com/v1'", message: 'names start with g-' }],
      properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } },
    };
    expect((await c.req('POST', CRDS, crd(schema))).status).toBe(201);
    expect((await c.req('POST', GADGETS, gadget('g-1', { n: 1 }))).status).toBe(201);
    const r = await c.req('POST', GADGETS, gadget('x-1', { n: 1 }));
    expect(r.body.message).toBe('Gadget.example.com "x-1" is invalid: <nil>: Invalid value: "object": names start with g-');
  });
});

describe('runtime cost budget per object', () => {
  it('rules that together cost more than 10,000,000 stop with the budget error', async () => {
    // each rule stays under the 1,000,000 per-expression limit; fifteen of them exceed the object's budget
    const rules = Array.from({ length: 15 }, (_, i) => ({ rule: `self.all(a, self.all(b, a == b || a != '${i}'))` }));
    const created = await c.req('POST', CRDS, crd(withSpec({ properties: { words: { type: 'array', maxItems: 400, items: { type: 'string', maxLength: 1 }, 'x-kubernetes-validations': rules } } })));
    expect(created.status).toBe(201);
    const r = await c.req('POST', GADGETS, gadget('b1', { words: Array(400).fill('a') }));
    expect(r.status).toBe(422);
    expect(r.body.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run', field: 'spec.words' },
    ]);
    expect((await c.req('POST', GADGETS, gadget('b2', { words: Array(100).fill('a') }))).status).toBe(201);
  });
});

describe('marker changes through a CRD update (spec merge strategy rules 4 and 5)', () => {
  const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
  const schemaWith = (listType: string) => withSpec({
    properties: {
      ports: {
        type: 'array',
        'x-kubernetes-list-type': listType,
        ...(listType === 'map' ? { 'x-kubernetes-list-map-keys': ['name'] } : {}),
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
      },
    },
  });
  const apply = (manager: string, ports: unknown[], force = false) =>
    c.req('PATCH', `${GADGETS}/m1?fieldManager=${manager}${force ? '&force=true' : ''}`, gadget('m1', { ports }), APPLY);
  const setListType = async (listType: string) => {
    const cur = (await c.req('GET', `${CRDS}/gadgets.example.com`)).body;
    cur.spec.versions[0].schema.openAPIV3Schema = schemaWith(listType);
    expect((await c.req('PUT', `${CRDS}/gadgets.example.com`, cur)).status).toBe(200);
  };

  it('map -> atomic: the whole list is owned by the element owners; a later change conflicts', async () => {
    expect((await c.req('POST', CRDS, crd(schemaWith('map')))).status).toBe(201);
    expect((await apply('alice', [{ name: 'a', port: 1 }])).status).toBe(201);
    expect((await apply('bob', [{ name: 'b', port: 2 }])).status).toBe(200);
    await setListType('atomic');
    const r = await apply('bob', [{ name: 'b', port: 3 }]);
    expect(r.status).toBe(409);
    expect(r.body.reason).toBe('Conflict');
    expect(r.body.details.causes.map((x: any) => x.field)).toContain('.spec.ports');
  });

  it('atomic -> map: no conflict on the next apply; inner keys start unowned', async () => {
    expect((await c.req('POST', CRDS, crd(schemaWith('atomic')))).status).toBe(201);
    expect((await apply('alice', [{ name: 'a', port: 1 }])).status).toBe(201);
    await setListType('map');
    const r = await apply('bob', [{ name: 'b', port: 2 }]);
    expect(r.status).toBe(200);
    expect(r.body.spec.ports).toEqual([{ name: 'a', port: 1 }, { name: 'b', port: 2 }]);
  });
});

// Static cost of x-kubernetes-validations as apiextensions-apiserver v1.33 estimates it at CRD create/update:
// a rule's cost is multiplied by the product of the maxItems/maxProperties of the lists and maps above it; as
// soon as one of them declares no bound, the product is replaced by how many of the smallest values of the
// rule's type fit in one 3 MiB request (floor(3145728 / (minSerializedSize + 1))), never by a product of guesses.
describe('static rule cost (cardinality of enclosing lists and maps)', () => {
  const causes = (r: any) => r.body.details.causes.map((x: any) => `${x.field}: ${x.message}`);
  const base = 'spec.validation.openAPIV3Schema.properties[spec]';
  const HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
  // matches() over a string of at most 1000 characters: estimated 803
  const word = { type: 'string', maxLength: 1000, 'x-kubernetes-validations': [{ rule: "self.matches('^[a-z]+$')" }] };
  const selector = {
    type: 'object',
    properties: { name: { type: 'string' }, matchLabels: { type: 'object', additionalProperties: { type: 'string' } } },
    'x-kubernetes-validations': [{ rule: '!(has(self.name) && has(self.matchLabels))', message: 'either name or matchLabels' }],
  };

  it('a small rule under unbounded (and nested unbounded) lists is accepted, as the real server accepts it', async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        selectors: { type: 'array', items: selector },
        pipeline: { type: 'array', items: { type: 'object', properties: { requiredResources: { type: 'array', items: selector } } } },
        byName: { type: 'object', additionalProperties: { type: 'array', items: selector } },
      },
    })));
    expect(r.status).toBe(201);
  });

  it('under bounded lists the cost is multiplied by maxItems, nested bounds multiply', async () => {
    const ok = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        words: { type: 'array', maxItems: 10000, items: word },
        grid: { type: 'array', maxItems: 100, items: { type: 'array', maxItems: 100, items: word } },
      },
    })));
    expect(ok.status).toBe(201);
    await c.req('DELETE', `${CRDS}/gadgets.example.com`);

    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        // 803 * 20000 = 16,060,000 > 10,000,000
        words: { type: 'array', maxItems: 20000, items: word },
        // 803 * 200 * 100
        grid: { type: 'array', maxItems: 200, items: { type: 'array', maxItems: 100, items: word } },
      },
    })));
    expect(r.status).toBe(422);
    expect(causes(r)).toEqual([
      `${base}.properties[words].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.6x ${HINT}`,
      `${base}.properties[grid].items.items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.6x ${HINT}`,
    ]);
  });

  it('a bounded list under an unbounded one is unbounded: the estimate uses the size of the rule type', async () => {
    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        // 803 * floor(3145728 / 3) = 842,006,528
        grid: { type: 'array', items: { type: 'array', maxItems: 2, items: word } },
      },
    })));
    expect(r.status).toBe(422);
    expect(causes(r)).toEqual([
      `${base}.properties[grid].items.items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 84.2x ${HINT}`,
      `${base}.properties[grid].items.items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 8.4x ${HINT}`,
    ]);
  });

  it('maps: multiplied by maxProperties, or unbounded without it', async () => {
    const ok = await c.req('POST', CRDS, crd(withSpec({ properties: { labels: { type: 'object', maxProperties: 10000, additionalProperties: word } } })));
    expect(ok.status).toBe(201);
    await c.req('DELETE', `${CRDS}/gadgets.example.com`);
    const r = await c.req('POST', CRDS, crd(withSpec({
      properties: {
        labels: { type: 'object', maxProperties: 20000, additionalProperties: word },
        notes: { type: 'object', additionalProperties: word },
      },
    })));
    expect(causes(r)).toEqual([
      `${base}.properties[labels].additionalProperties.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.6x ${HINT}`,
      `${base}.properties[notes].additionalProperties.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 84.2x ${HINT}`,
      `${base}.properties[notes].additionalProperties.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${base}.properties[labels].additionalProperties.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 8.6x ${HINT}`,
    ]);
  });

  it('rules each within the limit whose total passes the per-CRD limit: the four most expensive are named', async () => {
    const props: Record<string, unknown> = {};
    // 13 lists with maxItems 10000, 9990, ..., 9880: total 803 * 129220 = 103,763,660 > 100,000,000
    for (let i = 0; i < 13; i++) props[`l${i}`] = { type: 'array', maxItems: 10000 - 10 * i, items: word };
    const r = await c.req('POST', CRDS, crd(withSpec({ properties: props })));
    expect(r.status).toBe(422);
    expect(causes(r)).toEqual([
      ...[0, 1, 2, 3].map((i) => `${base}.properties[l${i}].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`),
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.037637x ${HINT}`,
    ]);
  });
});
