// Binds the quantity (spec: 1.29 and later), semver (1.34 and later) and format (1.32 and later) libraries.

import type { CelLibrary, CelValue, SizeEstimate } from '../library.js';
import { CelOpaque, CelOptional, T, actualSize } from '../library.js';
import * as F from './format.js';
import * as Q from './quantity.js';
import * as SV from './semver.js';
import { REGEX_LENGTH, STRING_TRAVERSAL, mem, nominal, ov, sizeTimes, traversal } from './bind-util.js';

const str = (v: CelValue) => v as string;
const parseCost = { cost: (a: CelValue[]) => traversal(a[0]!) };

// ---- quantity ----

export const QUANTITY_TYPE = T.opaque('kubernetes.Quantity');

export class QuantityValue extends CelOpaque {
  override readonly celType = QUANTITY_TYPE;
  constructor(readonly q: Q.Quantity) {
    super();
  }
  override equals(other: CelValue): boolean {
    return other instanceof QuantityValue && Q.quantityEquals(this.q, other.q);
  }
  override toString(): string {
    return Q.quantityToString(this.q);
  }
}

const asQ = (v: CelValue) => (v as QuantityValue).q;
const qv = (q: Q.Quantity) => new QuantityValue(q);

export const quantityLibrary: CelLibrary = {
  name: 'kubernetes.quantity',
  minVersion: '1.29',
  types: [QUANTITY_TYPE],
  functions: [
    { name: 'quantity', overloads: [ov('string_to_quantity', [T.string], QUANTITY_TYPE, (s) => qv(Q.parseQuantity(str(s))), parseCost)] },
    { name: 'isQuantity', overloads: [ov('is_quantity_string', [T.string], T.bool, (s) => Q.isQuantity(str(s)), parseCost)] },
    // The v1.33 library declares sign as a global overload (`sign(q)`); its documentation and the spec
    // list it as a member (`q.sign()`), so both forms are accepted here.
    {
      name: 'sign',
      overloads: [
        ov('quantity_sign', [QUANTITY_TYPE], T.int, (q) => BigInt(Q.sign(asQ(q))), nominal),
        mem('quantity_sign_member', [QUANTITY_TYPE], T.int, (q) => BigInt(Q.sign(asQ(q))), nominal),
      ],
    },
    {
      name: 'isGreaterThan',
      overloads: [mem('quantity_is_greater_than', [QUANTITY_TYPE, QUANTITY_TYPE], T.bool, (a, b) => Q.compare(asQ(a), asQ(b)) === 1, nominal)],
    },
    {
      name: 'isLessThan',
      overloads: [mem('quantity_is_less_than', [QUANTITY_TYPE, QUANTITY_TYPE], T.bool, (a, b) => Q.compare(asQ(a), asQ(b)) === -1, nominal)],
    },
    {
      name: 'compareTo',
      overloads: [mem('quantity_compare_to', [QUANTITY_TYPE, QUANTITY_TYPE], T.int, (a, b) => BigInt(Q.compare(asQ(a), asQ(b))), nominal)],
    },
    {
      name: 'asApproximateFloat',
      overloads: [mem('quantity_get_float', [QUANTITY_TYPE], T.double, (q) => Q.asApproximateFloat(asQ(q)), nominal)],
    },
    { name: 'asInteger', overloads: [mem('quantity_get_int', [QUANTITY_TYPE], T.int, (q) => Q.asInteger(asQ(q)), nominal)] },
    { name: 'isInteger', overloads: [mem('quantity_is_integer', [QUANTITY_TYPE], T.bool, (q) => Q.isInteger(asQ(q)), nominal)] },
    {
      name: 'add',
      overloads: [
        mem('quantity_add', [QUANTITY_TYPE, QUANTITY_TYPE], QUANTITY_TYPE, (a, b) => qv(Q.add(asQ(a), asQ(b))), nominal),
        mem('quantity_add_int', [QUANTITY_TYPE, T.int], QUANTITY_TYPE, (a, n) => qv(Q.addInt(asQ(a), n as bigint)), nominal),
      ],
    },
    {
      name: 'sub',
      overloads: [
        mem('quantity_sub', [QUANTITY_TYPE, QUANTITY_TYPE], QUANTITY_TYPE, (a, b) => qv(Q.sub(asQ(a), asQ(b))), nominal),
        mem('quantity_sub_int', [QUANTITY_TYPE, T.int], QUANTITY_TYPE, (a, n) => qv(Q.subInt(asQ(a), n as bigint)), nominal),
      ],
    },
  ],
};

// ---- semver ----

export const SEMVER_TYPE = T.opaque('kubernetes.Semver');

export class SemverValue extends CelOpaque {
  override readonly celType = SEMVER_TYPE;
  constructor(readonly v: SV.Semver) {
    super();
  }
  override equals(other: CelValue): boolean {
    return other instanceof SemverValue && SV.semverEquals(this.v, other.v);
  }
  override toString(): string {
    return SV.semverToString(this.v);
  }
}

const asSV = (v: CelValue) => (v as SemverValue).v;

export const semverLibrary: CelLibrary = {
  name: 'kubernetes.Semver',
  minVersion: '1.34',
  types: [SEMVER_TYPE],
  functions: [
    {
      name: 'semver',
      overloads: [
        ov('string_to_semver', [T.string], SEMVER_TYPE, (s) => new SemverValue(SV.parseSemver(str(s))), parseCost),
        ov('string_bool_to_semver', [T.string, T.bool], SEMVER_TYPE, (s, n) => new SemverValue(SV.parseSemver(str(s), n as boolean)), parseCost),
      ],
    },
    {
      name: 'isSemver',
      overloads: [
        ov('is_semver_string', [T.string], T.bool, (s) => SV.isSemver(str(s)), parseCost),
        ov('is_semver_string_bool', [T.string, T.bool], T.bool, (s, n) => SV.isSemver(str(s), n as boolean), parseCost),
      ],
    },
    {
      name: 'isGreaterThan',
      overloads: [mem('semver_is_greater_than', [SEMVER_TYPE, SEMVER_TYPE], T.bool, (a, b) => SV.compareSemver(asSV(a), asSV(b)) === 1, nominal)],
    },
    {
      name: 'isLessThan',
      overloads: [mem('semver_is_less_than', [SEMVER_TYPE, SEMVER_TYPE], T.bool, (a, b) => SV.compareSemver(asSV(a), asSV(b)) === -1, nominal)],
    },
    {
      name: 'compareTo',
      overloads: [mem('semver_compare_to', [SEMVER_TYPE, SEMVER_TYPE], T.int, (a, b) => BigInt(SV.compareSemver(asSV(a), asSV(b))), nominal)],
    },
    { name: 'major', overloads: [mem('semver_major', [SEMVER_TYPE], T.int, (v) => SV.major(asSV(v)), nominal)] },
    { name: 'minor', overloads: [mem('semver_minor', [SEMVER_TYPE], T.int, (v) => SV.minor(asSV(v)), nominal)] },
    { name: 'patch', overloads: [mem('semver_patch', [SEMVER_TYPE], T.int, (v) => SV.patch(asSV(v)), nominal)] },
  ],
};

// ---- format ----

export const FORMAT_TYPE = T.opaque('kubernetes.NamedFormat');
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

export class FormatValue extends CelOpaque {
  override readonly celType = FORMAT_TYPE;
  constructor(readonly f: F.NamedFormat) {
    super();
  }
  override equals(other: CelValue): boolean {
    return other instanceof FormatValue && other.f.name === this.f.name;
  }
}

const FORMAT_VALUES = new Map(F.FORMAT_NAMES.map((n) => [n, new FormatValue(F.NAMED_FORMATS[n]!)]));

const validateCost = {
  cost: (a: CelValue[]) => {
    const f = (a[0] as FormatValue).f;
    const strCost = Math.ceil((1 + actualSize(a[1]!)) * STRING_TRAVERSAL);
    return strCost * Math.ceil(f.maxRegexSize * REGEX_LENGTH);
  },
  estimate: (s: SizeEstimate[]) => sizeTimes(sizeTimes(s[1]!, STRING_TRAVERSAL), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH),
};

export const formatLibrary: CelLibrary = {
  name: 'kubernetes.format',
  minVersion: '1.32',
  types: [FORMAT_TYPE],
  functions: [
    {
      name: 'validate',
      overloads: [
        mem('format-validate', [FORMAT_TYPE, T.string], T.optional(T.list(T.string)), (f, s) => {
          const errs = F.validateFormat((f as FormatValue).f, str(s));
          return errs === undefined ? CelOptional.none : CelOptional.of(errs);
        }, validateCost),
      ],
    },
    {
      name: 'format.named',
      overloads: [
        ov('format-named', [T.string], T.optional(FORMAT_TYPE), (n) => {
          const f = FORMAT_VALUES.get(str(n));
          return f && Object.hasOwn(F.NAMED_FORMATS, str(n)) ? CelOptional.of(f) : CelOptional.none;
        }, nominal),
      ],
    },
    ...F.FORMAT_NAMES.map((n) => ({
      name: `format.${n}`,
      overloads: [ov(`format.${n}`, [], FORMAT_TYPE, () => FORMAT_VALUES.get(n)!)],
    })),
  ],
};
