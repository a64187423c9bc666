// JSON patch operations cannot build a document deeper than the body budget: a subtree copied into
// itself doubles its depth, a deep value added at a deep path adds both depths.
import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from './json-patch.js';
import { StatusError } from '../errors.js';
import { MAX_NESTING_DEPTH } from '../codec/budgets.js';

function deep(d: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < d; i++) v = { a: v };
  return v;
}
const deepPath = (d: number) => '/a'.repeat(d);

/** The real server answers any JSON patch operation error with this generic 422. */
const REJECTED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 };

function status(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e.status;
    throw e;
  }
  return 'applied';
}

describe('JSON patch: nesting budget', () => {
  // a value of depth `v` placed at a path of `p` segments nests p + v levels
  const p = 600;
  const fits = MAX_NESTING_DEPTH - p;
  const path = `${deepPath(p - 1)}/x`;

  for (const op of ['copy', 'move'] as const) {
    it(`${op}: exactly the budget applies, one level more is the 422 and the document is untouched`, () => {
      expect(status(() => applyJsonPatch({ a: deep(p), b: deep(fits) }, [{ op, from: '/b', path }]))).toBe('applied');
      const doc = { a: deep(p), b: deep(fits + 1) };
      const before = JSON.stringify(doc);
      expect(status(() => applyJsonPatch(doc, [{ op, from: '/b', path }]))).toEqual(REJECTED);
      expect(JSON.stringify(doc)).toBe(before);
    });
  }

  it('a subtree copied into itself again and again (one level deeper each time) stops at the budget', () => {
    const copy = { op: 'copy', from: '/a', path: '/a/a' };
    const start = MAX_NESTING_DEPTH - 10;
    expect(status(() => applyJsonPatch({ a: deep(start) }, Array(8).fill(copy)))).toBe('applied');
    expect(status(() => applyJsonPatch({ a: deep(start) }, Array(20).fill(copy)))).toEqual(REJECTED);
  });

  for (const op of ['add', 'replace'] as const) {
    it(`${op}: a deep value at a deep path, either side of the budget`, () => {
      const at = `${deepPath(p - 1)}/a`;
      expect(status(() => applyJsonPatch({ a: deep(p) }, [{ op, path: at, value: deep(fits) }]))).toBe('applied');
      expect(status(() => applyJsonPatch({ a: deep(p) }, [{ op, path: at, value: deep(fits + 1) }]))).toEqual(REJECTED);
    });
  }
});
