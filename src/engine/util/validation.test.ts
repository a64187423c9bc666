import { describe, expect, it } from 'vitest';
import { fieldErrorString, invalid } from '../errors.js';
import {
  isConfigMapKey, isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPortName,
  nameIsDNSSubdomain, nameIsPathSegment, validateObjectMeta, validateObjectMetaUpdate, isIP,
} from './validation.js';

const strs = (errs: ReturnType<typeof validateObjectMeta>) => errs.map(fieldErrorString);

describe('string validators (apimachinery messages)', () => {
  it('DNS-1123 subdomain', () => {
    expect(isDNS1123Subdomain('example.com')).toEqual([]);
    expect(isDNS1123Subdomain('Foo')).toEqual([
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    expect(isDNS1123Subdomain('a'.repeat(254))[0]).toBe('must be no more than 253 characters');
  });
  it('DNS-1123 label, with the dots message', () => {
    expect(isDNS1123Label('my-ns')).toEqual([]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('A_b')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
  it('DNS-1035 label', () => {
    expect(isDNS1035Label('1abc')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
  it('qualified names and label values', () => {
    expect(isQualifiedName('app.kubernetes.io/name')).toEqual([]);
    expect(isQualifiedName('/x')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
    expect(isQualifiedName('-x')).toEqual([
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('a b')).toEqual([
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
    expect(isValidLabelValue('x'.repeat(64))[0]).toBe('must be no more than 63 characters');
  });
  it('qualified names found valid are known after, each answer a list of its own; invalid ones fail every time', () => {
    for (let i = 0; i < 3; i++) {
      const ok = isQualifiedName('example.com/known');
      expect(ok).toEqual([]);
      ok.push('a caller may add to its list');
      expect(isQualifiedName('example.com/-bad')).toHaveLength(1);
      expect(isQualifiedName('Example.com/x')[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain/);
    }
  });
  it('config map keys, port names, IPs', () => {
    expect(isConfigMapKey('..a')).toEqual(["must not start with '..'"]);
    expect(isConfigMapKey('a b')[0]).toContain("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name'");
    expect(isValidPortName('http')).toEqual([]);
    expect(isValidPortName('80')).toEqual(['must contain at least one letter (a-z)']);
    expect(isIP('10.96.0.1')).toBe(true);
    expect(isIP('010.96.0.1')).toBe(false);
    expect(isIP('fd00::1')).toBe(true);
    expect(isIP('::ffff:1.2.3.4')).toBe(true);
    expect(isIP('1::2::3')).toBe(false);
  });
  it('generateName masks a trailing dash; path segment names', () => {
    expect(nameIsDNSSubdomain('web-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('web-', false)).toHaveLength(1);
    expect(nameIsPathSegment('a/b', false)).toEqual(["may not contain '/'"]);
    expect(nameIsPathSegment('..', false)).toEqual(["may not be '..'"]);
  });
});

describe('validateObjectMeta', () => {
  const opts = { namespaced: true, nameValidator: nameIsDNSSubdomain };
  it('requires name or generateName and namespace', () => {
    expect(strs(validateObjectMeta({}, opts))).toEqual([
      'metadata.name: Required value: name or generateName is required',
      'metadata.namespace: Required value',
    ]);
  });
  it('forbids a namespace on cluster-scoped kinds', () => {
    expect(strs(validateObjectMeta({ name: 'n', namespace: 'x' }, { namespaced: false, nameValidator: nameIsDNSSubdomain }))).toEqual([
      'metadata.namespace: Forbidden: not allowed on this type',
    ]);
  });
  it('validates labels and annotations', () => {
    const errs = validateObjectMeta({ name: 'ok', namespace: 'default', labels: { 'a b': 'x' }, annotations: { big: 'x'.repeat(262142) } }, opts);
    expect(strs(errs)).toEqual([
      `metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
    expect(validateObjectMeta({ name: 'ok', namespace: 'default', annotations: { big: 'x'.repeat(262141) } }, opts)).toEqual([]);
  });
  it('renders a 422 as the real server does', () => {
    const e = invalid({ group: '', kind: 'ConfigMap' }, 'Bad', validateObjectMeta({ name: 'Bad', namespace: 'default' }, opts));
    expect(e.status.message).toBe(
      `ConfigMap "Bad" is invalid: metadata.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
  });
  it('owner references', () => {
    const errs = validateObjectMeta({ name: 'a', namespace: 'd', ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: 'u1', controller: true },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'y', uid: '', controller: true },
    ] }, opts);
    expect(strs(errs)[0]).toBe('metadata.ownerReferences.uid: Invalid value: "": uid must not be empty');
    expect(strs(errs)[1]).toContain('Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/x and Deployment/y');
  });
});

describe('validateObjectMetaUpdate', () => {
  it('keeps identity immutable and requires a resourceVersion', () => {
    const old = { name: 'a', namespace: 'd', uid: 'u1', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z' };
    expect(validateObjectMetaUpdate({ ...old }, old)).toEqual([]);
    expect(strs(validateObjectMetaUpdate({ ...old, uid: 'u2', resourceVersion: '' }, old))).toEqual([
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
      'metadata.uid: Invalid value: "u2": field is immutable',
    ]);
  });
  it('forbids new finalizers while deleting', () => {
    const old = { name: 'a', resourceVersion: '1', deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['a/b'] };
    expect(strs(validateObjectMetaUpdate({ ...old, finalizers: ['a/b', 'c/d'] }, old))).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"c/d"}',
    ]);
  });
});
