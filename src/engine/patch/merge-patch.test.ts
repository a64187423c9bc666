import { describe, expect, it } from 'vitest';
import { applyMergePatch, decodeMergePatchBody } from './merge-patch.js';
import { StatusError } from '../errors.js';

function fail(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('applyMergePatch (RFC 7386 as evanphx/json-patch v4 applies it)', () => {
  const table: [string, unknown, unknown, unknown][] = [
    ['replace a member', { a: 'b' }, { a: 'c' }, { a: 'c' }],
    ['add a member', { a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    ['null deletes', { a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    ['null for a missing member is a no-op', { a: 'b' }, { x: null }, { a: 'b' }],
    ['nested merge', { a: { b: 'c', d: 'e' } }, { a: { b: 'x', d: null } }, { a: { b: 'x' } }],
    ['lists are replaced', { a: [1, 2] }, { a: [3] }, { a: [3] }],
    ['object replaces a scalar, its nulls dropped', { a: 'b' }, { a: { c: null, d: 1 } }, { a: { d: 1 } }],
    ['new member: nested nulls dropped, also inside list items', {}, { a: { b: null, c: [{ d: null, e: 1 }, null] } }, { a: { c: [{ e: 1 }, null] } }],
    ['a list replacing an object keeps its nulls (library behaviour)', { a: { b: 1 } }, { a: [{ c: null }] }, { a: [{ c: null }] }],
    ['scalar replaces an object', { a: { b: 1 } }, { a: 'x' }, { a: 'x' }],
    ['empty patch', { a: 1 }, {}, { a: 1 }],
    ['member with a null value in the document is set', { a: null }, { a: { b: null, c: 1 } }, { a: { c: 1 } }],
  ];
  for (const [name, doc, patch, want] of table) {
    it(name, () => {
      const d = JSON.stringify(doc);
      const p = JSON.stringify(patch);
      expect(applyMergePatch(doc, patch)).toEqual(want);
      expect(JSON.stringify(doc)).toBe(d);
      expect(JSON.stringify(patch)).toBe(p);
    });
  }
  it('a patch that is null or a scalar: 400 Invalid JSON Patch', () => {
    for (const p of [null, 1, 'x', true]) {
      const e = fail(() => applyMergePatch({ a: 1 }, p));
      expect(e.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Invalid JSON Patch', reason: 'BadRequest', code: 400 });
    }
  });
  it('a list patch replaces the document, which cannot be a resource: 422', () => {
    const e = fail(() => applyMergePatch({ a: 1 }, [{ b: null, c: 1 }]));
    expect(e.status.code).toBe(422);
    expect(e.status.message).toBe(' "" is invalid: patch: Invalid value: "[{\\"c\\":1}]": couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }');
  });
});

describe('decodeMergePatchBody', () => {
  it('duplicates with fieldValidation Warn/Strict', () => {
    const r = decodeMergePatchBody('{"spec":{"paused":true,"paused":false,"template":{"spec":{"containers":[{"a":1,"a":2}]}}}}', 'Strict');
    expect(r.duplicates).toEqual(['spec.paused', 'spec.template.spec.containers[0].a']);
    expect(r.duplicateMessages).toEqual(['duplicate field "spec.paused"', 'duplicate field "spec.template.spec.containers[0].a"']);
    expect(r.value).toEqual({ spec: { paused: false, template: { spec: { containers: [{ a: 2 }] } } } });
    expect(decodeMergePatchBody('{"a":1,"a":2}', 'Ignore').duplicates).toEqual([]);
  });
  it('malformed bodies', () => {
    expect(fail(() => decodeMergePatchBody('{', 'Strict')).message).toBe('error decoding patch: unexpected end of JSON input');
    expect(fail(() => decodeMergePatchBody('{', 'Ignore')).message).toBe('Invalid JSON Patch');
    expect(fail(() => decodeMergePatchBody('[1]', 'Warn')).message).toBe('error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(decodeMergePatchBody('[1]', 'Ignore').value).toEqual([1]);
  });
});
