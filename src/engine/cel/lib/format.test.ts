import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES, NAMED_FORMATS, isDate, isDateTime, namedFormat, validateFormat } from './format.js';

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QNAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

// Cases from the Kubernetes format library tests (k8s.io/apiserver/pkg/cel/library/format_test.go) and more.
const cases: [string, string, string[] | undefined][] = [
  ['dns1123Label', 'my-label-name', undefined],
  ['dns1123Subdomain', 'apiextensions.k8s.io', undefined],
  ['qualifiedName', 'apiextensions.k8s.io/v1beta1', undefined],
  ['dns1123LabelPrefix', 'my-label-prefix-', undefined],
  ['dns1123SubdomainPrefix', 'mysubdomain.prefix.-', undefined],
  ['dns1035LabelPrefix', 'my-label-prefix-', undefined],
  ['uri', 'http://example.com', undefined],
  ['uuid', '123e4567-e89b-12d3-a456-426614174000', undefined],
  ['byte', 'aGVsbG8=', undefined],
  ['date', '2021-01-01', undefined],
  ['datetime', '2021-01-01T00:00:00Z', undefined],
  ['dns1123Label', 'contains a space', [LABEL_MSG]],
  ['dns1123Subdomain', 'contains a space', [SUBDOMAIN_MSG]],
  ['dns1035Label', 'contains a space', [DNS1035_MSG]],
  ['qualifiedName', 'contains a space', [QNAME_MSG]],
  ['dns1123LabelPrefix', 'contains a space-', [LABEL_MSG]],
  ['dns1123SubdomainPrefix', 'contains a space-', [SUBDOMAIN_MSG]],
  ['dns1035LabelPrefix', 'contains a space-', [DNS1035_MSG]],
  ['dns1123Label', 'my-label-name', undefined],
  ['dns1123Label', 'a.b', ['must not contain dots']],
  ['dns1123Label', 'a'.repeat(64), ['must be no more than 63 characters']],
  ['dns1035Label', '1abc', [DNS1035_MSG]],
  ['qualifiedName', 'my.name', undefined],
  ['qualifiedName', '/name', ['prefix part must be non-empty']],
  ['qualifiedName', 'a/b/c', [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]],
  ['byte', 'aGVsbG8', ['invalid base64']],
  ['byte', '', ['invalid base64']],
  ['date', '2020-01-01', undefined],
  ['date', '2020-01-32', ['invalid date']],
  ['date', '2020-02-29', undefined],
  ['date', '2021-02-29', ['invalid date']],
  ['date', '2020-1-01', ['invalid date']],
  ['datetime', '2020-01-01T00:00:00Z', undefined],
  ['datetime', '2020-01-32T00:00:00Z', ['invalid datetime']],
  ['datetime', '2020-01-01t23:59:59.123+05:30', undefined],
  ['datetime', '2020-01-01T24:00:00Z', ['invalid datetime']],
  ['datetime', '2020-01-01 00:00:00Z', ['invalid datetime']],
  ['labelValue', 'my-cool-label-Value', undefined],
  ['labelValue', '', undefined],
  ['uuid', '123E4567E89B12D3A456426614174000', undefined],
  ['uuid', 'not-a-uuid', ['does not match the UUID format']],
  ['uri', '../relative', ['parse "../relative": invalid URI for request']],
];

describe('format library validators', () => {
  it.each(cases)('format.%s().validate(%j)', (name, value, want) => {
    const f = namedFormat(name)!;
    expect(validateFormat(f, value)).toEqual(want);
  });
  it('labelValue reports both length and regex problems', () => {
    expect(validateFormat(NAMED_FORMATS.labelValue!, 'my-cool-label-Value!!\n\n!!!')).toEqual([
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
  });
  it('named lookups', () => {
    expect(namedFormat('unknown')).toBeUndefined();
    expect(namedFormat('toString')).toBeUndefined();
    expect(FORMAT_NAMES).toHaveLength(13);
    for (const n of FORMAT_NAMES) expect(namedFormat(n)).toBe(NAMED_FORMATS[n]);
    expect(new Set(FORMAT_NAMES.map((n) => NAMED_FORMATS[n]!.name)).size).toBe(13);
  });
  it('date helpers', () => {
    expect(isDate('0000-02-29')).toBe(true);
    expect(isDateTime('2021')).toBe(false);
  });
});
