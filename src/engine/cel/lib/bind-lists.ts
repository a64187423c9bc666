// Binds the Kubernetes list library (all compatibility versions) and cel-go's ext sets library
// (Kubernetes enables it from compatibility 1.29, i.e. 1.30 in the spec's numbering).

import type { CelLibrary, CelType, CelValue, SizeEstimate } from '../library.js';
import { CelDuration, CelUint, T, actualSize } from '../library.js';
import * as L from './lists.js';
import { MAX_U64, costAdd, mem, ov, sizeTimes, traversalCost } from './bind-util.js';

const A = T.param('A');
const list = (v: CelValue) => v as CelValue[];

const summable: [L.SummableKind, CelType][] = [
  ['int', T.int],
  ['uint', T.uint],
  ['double', T.double],
  ['duration', T.duration],
];
const comparable: [L.ComparableKind, CelType][] = [
  ['int', T.int],
  ['uint', T.uint],
  ['double', T.double],
  ['bool', T.bool],
  ['duration', T.duration],
  ['timestamp', T.timestamp],
  ['string', T.string],
  ['bytes', T.bytes],
];

// One traversal of the list at runtime; statically 1 per element (plus the string traversal of the
// elements in the real estimator, which needs element sizes this API does not carry).
const traversalCosts = {
  cost: (a: CelValue[]) => traversalCost(a[0]!),
  estimate: (s: SizeEstimate[]) => sizeTimes(s[0]!, 1),
};

/** The element kind of a non-empty list at runtime (dyn lists dispatch to the first sum overload). */
function runtimeKind(l: CelValue[], declared: L.SummableKind): L.SummableKind {
  const v = l[0];
  if (typeof v === 'bigint') return 'int';
  if (v instanceof CelUint) return 'uint';
  if (typeof v === 'number') return 'double';
  if (v instanceof CelDuration) return 'duration';
  return declared;
}

export const listsLibrary: CelLibrary = {
  name: 'kubernetes.lists',
  functions: [
    {
      name: 'isSorted',
      overloads: comparable.map(([n, t]) => mem(`list_${n}_is_sorted_bool`, [T.list(t)], T.bool, (l) => L.isSorted(list(l)), traversalCosts)),
    },
    {
      name: 'sum',
      overloads: summable.map(([n, t]) =>
        mem(`list_${n}_sum_${n}`, [T.list(t)], t, (l) => L.sum(list(l), runtimeKind(list(l), n)), traversalCosts),
      ),
    },
    { name: 'max', overloads: comparable.map(([n, t]) => mem(`list_${n}_max_${n}`, [T.list(t)], t, (l) => L.max(list(l)), traversalCosts)) },
    { name: 'min', overloads: comparable.map(([n, t]) => mem(`list_${n}_min_${n}`, [T.list(t)], t, (l) => L.min(list(l)), traversalCosts)) },
    { name: 'indexOf', overloads: [mem('list_a_index_of_int', [T.list(A), A], T.int, (l, x) => L.indexOf(list(l), x), traversalCosts)] },
    { name: 'lastIndexOf', overloads: [mem('list_a_last_index_of_int', [T.list(A), A], T.int, (l, x) => L.lastIndexOf(list(l), x), traversalCosts)] },
  ],
};

// cel-go ext sets: runtime cost 1 + |a|*|b|*factor; estimate |a|*|b|*factor + 1.
function setsCost(factor: number) {
  return {
    cost: (a: CelValue[]) => 1 + Math.floor(actualSize(a[0]!) * actualSize(a[1]!) * factor),
    // The two list sizes are the last two entries (an estimator may also pass the `sets` qualifier first).
    estimate: (s: SizeEstimate[]) => {
      const a = s[s.length - 2]!;
      const b = s[s.length - 1]!;
      const mul = (x: number, y: number) => Math.min(x * y, MAX_U64);
      return costAdd(sizeTimes({ min: mul(a.min, b.min), max: mul(a.max, b.max) }, factor), { min: 1, max: 1 });
    },
  };
}

export const setsLibrary: CelLibrary = {
  name: 'cel.lib.ext.sets',
  minVersion: '1.30',
  functions: [
    { name: 'sets.contains', overloads: [ov('list_sets_contains_list', [T.list(A), T.list(A)], T.bool, (a, b) => L.setsContains(list(a), list(b)), setsCost(1))] },
    {
      name: 'sets.equivalent',
      overloads: [ov('list_sets_equivalent_list', [T.list(A), T.list(A)], T.bool, (a, b) => L.setsEquivalent(list(a), list(b)), setsCost(2))],
    },
    {
      name: 'sets.intersects',
      overloads: [ov('list_sets_intersects_list', [T.list(A), T.list(A)], T.bool, (a, b) => L.setsIntersects(list(a), list(b)), setsCost(1))],
    },
  ],
};
