// Real kubectl 1.33 against the Node host: CustomResourceDefinitions and custom resources.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
    shortNames: [wd]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    additionalPrinterColumns:
    - name: Size
      type: integer
      jsonPath: .spec.size
    - name: Color
      type: string
      jsonPath: .spec.color
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            x-kubernetes-validations:
            - rule: self.size <= self.maxSize
              message: size must not exceed maxSize
            - rule: self.color == oldSelf.color
              message: color is immutable
            properties:
              size:
                type: integer
                minimum: 0
              maxSize:
                type: integer
                default: 10
              color:
                type: string
                enum: [red, green, blue]
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name:
                      type: string
                    port:
                      type: integer
          status:
            type: object
            properties:
              ready:
                type: boolean
`;

const widget = (name: string, size: number, color = 'red', extra = '') => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ${name}
spec:
  size: ${size}
  color: ${color}
${extra}`;

suite('kubectl (custom resources)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('applies a CRD client-side, and again server-side', async () => {
    let r = await k.kubectl(['apply', '-f', '-'], { input: CRD });
    expect(r.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/widgets.example.com created');
    r = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: CRD });
    expect(r.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/widgets.example.com serverside-applied');
    r = await k.kubectl(['get', 'crd', 'widgets.example.com', '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}']);
    expect(r.stdout).toBe('True');
  });

  it('creates and applies custom resources; defaults show up', async () => {
    let r = await k.kubectl(['create', '-f', '-'], { input: widget('w1', 3) });
    expect(r.stdout.trim()).toBe('widget.example.com/w1 created');
    r = await k.kubectl(['apply', '-f', '-'], { input: widget('w2', 5, 'blue') });
    expect(r.stdout.trim()).toBe('widget.example.com/w2 created');
    r = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: widget('w3', 7, 'green', '  ports:\n  - name: http\n    port: 80\n') });
    expect(r.stdout.trim()).toBe('widget.example.com/w3 serverside-applied');
    r = await k.kubectl(['get', 'widget', 'w1', '-o', 'jsonpath={.spec.maxSize}']);
    expect(r.stdout).toBe('10');
    // client-side apply again with a change
    r = await k.kubectl(['apply', '-f', '-'], { input: widget('w2', 6, 'blue') });
    expect(r.stdout.trim()).toBe('widget.example.com/w2 configured');
  });

  it('lists with printer columns, by short name and through the "all" category', async () => {
    let r = await k.kubectl(['get', 'wd']);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+SIZE\s+COLOR\s+AGE$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      ['w1', '3', 'red'],
      ['w2', '6', 'blue'],
      ['w3', '7', 'green'],
    ]);
    r = await k.kubectl(['get', 'all']);
    expect(r.stdout).toMatch(/NAME\s+SIZE\s+COLOR\s+AGE\nwidget\.example\.com\/w1\s+3\s+red\s+/);
    r = await k.kubectl(['get', 'widgets.example.com', '-o', 'name']);
    expect(r.stdout.trim().split('\n')).toEqual(['widget.example.com/w1', 'widget.example.com/w2', 'widget.example.com/w3']);
  });

  it('shows schema and validation-rule failures', async () => {
    let r = await k.kubectl(['create', '-f', '-'], { input: widget('bad', 20), allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('The Widget "bad" is invalid: spec: Invalid value: "object": size must not exceed maxSize');
    r = await k.kubectl(['create', '-f', '-'], { input: widget('bad2', -1, 'pink'), allowFail: true });
    // (properties in key order of the stored schema; the real server walks a Go map)
    expect(r.stderr.trim()).toBe(
      'The Widget "bad2" is invalid: \n' +
        '* spec.color: Unsupported value: "pink": supported values: "red", "green", "blue"\n' +
        '* spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0\n' +
        '* <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
    r = await k.kubectl(['apply', '-f', '-'], { input: widget('w2', 6, 'red'), allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The Widget "w2" is invalid: spec: Invalid value: "object": color is immutable');
  });

  it('a CRD with a rule that does not compile is refused', async () => {
    const bad = CRD.replace('widgets.example.com', 'gizmos.example.com').replace('plural: widgets', 'plural: gizmos').replace('singular: widget', 'singular: gizmo')
      .replace('kind: Widget', 'kind: Gizmo').replace('shortNames: [wd]', 'shortNames: [gz]').replace('rule: self.size <= self.maxSize', 'rule: self.size <=');
    const r = await k.kubectl(['apply', '-f', '-'], { input: bad, allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'The CustomResourceDefinition "gizmos.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.size <=", Message:"size must not exceed maxSize", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:13: Syntax error: mismatched input \'<EOF>\' expecting',
    );
  });

  it('explain reads the CRD schema from /openapi/v3', async () => {
    const r = await k.kubectl(['explain', 'widgets.spec.size']);
    expect(r.stdout).toMatch(/^GROUP:\s+example\.com\nKIND:\s+Widget\nVERSION:\s+v1\n\nFIELD: size <integer>/);
  });

  it('deleting the CRD removes its resources', async () => {
    await k.kubectl(['delete', 'crd', 'widgets.example.com']);
    const r = await k.kubectl(['get', 'widgets'], { allowFail: true });
    expect(r.code).toBe(1);
    // kubectl's cached discovery still knows the resource; the list itself is a 404
    expect(r.stderr.trim()).toBe('Error from server (NotFound): Unable to list "example.com/v1, Resource=widgets": the server could not find the requested resource');
  });
});
