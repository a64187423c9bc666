import { describe, expect, it } from 'vitest';
import { applyJsonPatch, decodeJsonPatchBody } from './json-patch.js';
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

const REJECTED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 };
const doc = { metadata: { name: 'a', labels: { x: '1' } }, spec: { list: [1, 2, 3], obj: { k: 'v' }, nul: null } };

describe('applyJsonPatch: operations', () => {
  const ok: [string, unknown[], unknown][] = [
    ['add member', [{ op: 'add', path: '/spec/new', value: { a: 1 } }], { ...doc, spec: { ...doc.spec, new: { a: 1 } } }],
    ['add replaces an existing member', [{ op: 'add', path: '/metadata/name', value: 'b' }], { ...doc, metadata: { ...doc.metadata, name: 'b' } }],
    ['add into a list', [{ op: 'add', path: '/spec/list/1', value: 9 }], { ...doc, spec: { ...doc.spec, list: [1, 9, 2, 3] } }],
    ['append with -', [{ op: 'add', path: '/spec/list/-', value: 4 }], { ...doc, spec: { ...doc.spec, list: [1, 2, 3, 4] } }],
    ['add at the end index', [{ op: 'add', path: '/spec/list/3', value: 4 }], { ...doc, spec: { ...doc.spec, list: [1, 2, 3, 4] } }],
    ['negative index counts from the end', [{ op: 'add', path: '/spec/list/-1', value: 9 }], { ...doc, spec: { ...doc.spec, list: [1, 2, 3, 9] } }],
    ['remove member', [{ op: 'remove', path: '/metadata/labels/x' }], { ...doc, metadata: { name: 'a', labels: {} } }],
    ['remove a null member', [{ op: 'remove', path: '/spec/nul' }], { ...doc, spec: { list: [1, 2, 3], obj: { k: 'v' } } }],
    ['remove list item', [{ op: 'remove', path: '/spec/list/0' }], { ...doc, spec: { ...doc.spec, list: [2, 3] } }],
    ['replace', [{ op: 'replace', path: '/spec/obj/k', value: 'w' }], { ...doc, spec: { ...doc.spec, obj: { k: 'w' } } }],
    ['replace of a missing member adds it (library behaviour)', [{ op: 'replace', path: '/spec/obj/z', value: 1 }], { ...doc, spec: { ...doc.spec, obj: { k: 'v', z: 1 } } }],
    ['replace the whole document', [{ op: 'replace', path: '', value: { a: 1 } }], { a: 1 }],
    ['replace the whole document with a scalar does nothing', [{ op: 'replace', path: '', value: 1 }], doc],
    ['move', [{ op: 'move', from: '/spec/obj/k', path: '/spec/moved' }], { ...doc, spec: { list: [1, 2, 3], obj: {}, nul: null, moved: 'v' } }],
    ['copy', [{ op: 'copy', from: '/spec/obj', path: '/spec/copy' }], { ...doc, spec: { ...doc.spec, copy: { k: 'v' } } }],
    ['copy of a missing member copies null', [{ op: 'copy', from: '/spec/missing', path: '/spec/c' }], { ...doc, spec: { ...doc.spec, c: null } }],
    ['test passes', [{ op: 'test', path: '/spec/obj', value: { k: 'v' } }, { op: 'test', path: '/spec/list/1', value: 2 }], doc],
    ['test null against a missing member', [{ op: 'test', path: '/spec/missing', value: null }], doc],
    ['test null against null', [{ op: 'test', path: '/spec/nul', value: null }], doc],
    ['escaped keys', [{ op: 'add', path: '/metadata/labels/a~1b~0c', value: 'y' }], { ...doc, metadata: { name: 'a', labels: { x: '1', 'a/b~c': 'y' } } }],
    ['a path without leading slash uses its last segment at the root', [{ op: 'add', path: 'spec/zz', value: 1 }], { ...doc, zz: 1 }],
    ['add without value adds null', [{ op: 'add', path: '/spec/v' }], { ...doc, spec: { ...doc.spec, v: null } }],
    ['null patch does nothing', null as unknown as unknown[], doc],
  ];
  for (const [name, patch, want] of ok) {
    it(name, () => {
      const before = JSON.stringify(doc);
      expect(applyJsonPatch(doc, patch)).toEqual(want);
      expect(JSON.stringify(doc)).toBe(before);
    });
  }
  it('values are copied, not shared', () => {
    const value = { a: [1] };
    const r = applyJsonPatch({}, [{ op: 'add', path: '/x', value }, { op: 'add', path: '/y', value }]) as any;
    r.x.a.push(2);
    expect(r.y.a).toEqual([1]);
    expect(value.a).toEqual([1]);
  });

  const failing: [string, unknown[], string][] = [
    ['missing parent', [{ op: 'add', path: '/spec/nope/x', value: 1 }], 'add operation does not apply: doc is missing path: "/spec/nope/x": missing value'],
    ['parent is a scalar', [{ op: 'add', path: '/metadata/name/x', value: 1 }], 'add operation does not apply: doc is missing path: "/metadata/name/x": missing value'],
    ['index out of range', [{ op: 'add', path: '/spec/list/5', value: 1 }], "error in add for path: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced"],
    ['not an index', [{ op: 'add', path: '/spec/list/x', value: 1 }], `error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`],
    ['remove missing member', [{ op: 'remove', path: '/spec/nope' }], "error in remove for path: '/spec/nope': Unable to remove nonexistent key: nope: missing value"],
    ['replace missing list item', [{ op: 'replace', path: '/spec/list/7', value: 1 }], 'replace operation does not apply: doc is missing key: /spec/list/7: missing value'],
    ['failed test', [{ op: 'test', path: '/metadata/name', value: 'b' }], 'testing value /metadata/name failed: test failed'],
    ['failed test of the whole document', [{ op: 'test', path: '', value: {} }], 'testing value  failed: test failed'],
    ['test without value', [{ op: 'test', path: '/metadata/name' }], 'testing value /metadata/name failed: test failed'],
    ['unknown op', [{ op: 'frob', path: '/a' }], 'Unexpected kind: frob'],
    ['missing op', [{ path: '/a' }], 'Unexpected kind: unknown'],
    ['missing path', [{ op: 'add', value: 1 }], 'add operation failed to decode path: operation missing path field: missing value'],
    ['move from missing', [{ op: 'move', from: '/spec/nope', path: '/spec/x' }], "error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value"],
    ['later op fails after earlier ones', [{ op: 'add', path: '/a', value: 1 }, { op: 'remove', path: '/b' }], "error in remove for path: '/b': Unable to remove nonexistent key: b: missing value"],
  ];
  for (const [name, patch, detail] of failing) {
    it(`422: ${name}`, () => {
      const e = fail(() => applyJsonPatch(doc, patch));
      expect(e.status).toEqual(REJECTED);
      expect((e as StatusError & { detail: string }).detail).toBe(detail);
    });
  }

  it('replacing the document with a list: 422 as the decoding of the result fails', () => {
    const e = fail(() => applyJsonPatch(doc, [{ op: 'replace', path: '', value: [1, { a: null }] }]));
    expect(e.status.code).toBe(422);
    expect(e.message).toBe(' "" is invalid: patch: Invalid value: "[1,{\\"a\\":null}]": couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }');
  });
  it('not a list: 400', () => {
    const e = fail(() => applyJsonPatch(doc, { op: 'add' }));
    expect(e.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch', reason: 'BadRequest', code: 400 });
    expect(fail(() => applyJsonPatch(doc, ['x'])).message).toBe('json: cannot unmarshal string into Go value of type jsonpatch.Operation');
  });
  it('more than 10000 operations: 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/metadata/name', value: 'a' }));
    const e = fail(() => applyJsonPatch(doc, ops));
    expect(e.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001', reason: 'RequestEntityTooLarge', code: 413 });
    expect(() => applyJsonPatch(doc, ops.slice(0, 10000))).not.toThrow();
  });
});

describe('decodeJsonPatchBody', () => {
  const body = `[
    {"op": "add", "path": "/spec/unknown1", "value": "val1", "foo":"bar"},
    {"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val1"},
    {"op": "add", "path": "/spec/x", "value": {"a": 1, "a": 2}, "bar": 1, "bar": 2}
  ]`;
  it('strict errors of the patch document (field_validation_test.go wording)', () => {
    const r = decodeJsonPatchBody(body, 'Strict');
    expect(r.patchErrors).toEqual([
      'json patch unknown field "[0].foo"',
      'json patch duplicate field "[1].path"',
      'json patch duplicate field "[2].value.a"',
      'json patch unknown field "[2].bar"',
    ]);
    expect((r.patch[1] as { path: string }).path).toBe('/spec/unknown3');
  });
  it('no strict errors when ignoring', () => {
    expect(decodeJsonPatchBody(body, 'Ignore').patchErrors).toEqual([]);
  });
  it('malformed bodies', () => {
    expect(fail(() => decodeJsonPatchBody('[{', 'Strict')).message).toBe('error decoding patch: unexpected end of JSON input');
    expect(fail(() => decodeJsonPatchBody('[{', 'Ignore')).message).toBe('unexpected end of JSON input');
    expect(fail(() => decodeJsonPatchBody('{}', 'Warn')).message).toBe('error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    expect(fail(() => decodeJsonPatchBody('{}', 'Ignore')).message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(fail(() => decodeJsonPatchBody('[{"op":1}]', 'Strict')).message).toBe('error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string');
    expect(fail(() => decodeJsonPatchBody('[1]', 'Strict')).message).toBe('error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp');
  });
});
