// Binds the regex (find/findAll), URL and ext strings libraries (all compatibility versions; ext strings
// version 0 up to 1.29 and version 2 from 1.30, per the spec table).

import type { CelLibrary, CelValue, CostEstimate, SizeEstimate } from '../library.js';
import { CelMap, CelOpaque, T, actualSize } from '../library.js';
import * as regex from './regex.js';
import * as S from './strings.js';
import * as U from './url.js';
import { MAX_U64, REGEX_LENGTH, STRING_TRAVERSAL, costAdd, costMul, mem, nominal, ov, sizeTimes, traversal, traversalCost } from './bind-util.js';

const str = (v: CelValue) => v as string;
const int = (v: CelValue) => v as bigint;
const list = (v: CelValue) => v as CelValue[];

// ---- regex ----

function regexCall<R>(f: () => R): R {
  try {
    return f();
  } catch (e) {
    if (e instanceof regex.RegexSyntaxError) throw new Error(regex.illegalRegexMessage(e));
    throw e;
  }
}

/** The pattern's share of a regex call's cost; the last pattern's is kept (a rule's pattern is nearly always one literal). */
let lastPattern: CelValue | undefined;
let lastPatternCost = 0;
function patternCost(re: CelValue): number {
  if (re !== lastPattern) {
    lastPatternCost = Math.ceil(actualSize(re) * REGEX_LENGTH);
    lastPattern = re;
  }
  return lastPatternCost;
}
const findCost = {
  cost: (a: CelValue[]) => Math.ceil((1 + actualSize(a[0]!)) * STRING_TRAVERSAL) * patternCost(a[1]!),
  estimate: (s: SizeEstimate[]) =>
    costMul(sizeTimes({ min: s[0]!.min + 1, max: s[0]!.max >= MAX_U64 ? MAX_U64 : s[0]!.max + 1 }, STRING_TRAVERSAL), sizeTimes(s[1]!, REGEX_LENGTH)),
  resultSize: (s: SizeEstimate[]) => ({ min: 0, max: s[0]!.max }),
};

// cel-go `matches` (RE2, unanchored; a bad pattern is Go's parse error text). These overloads take the
// ids of the standard library's, so they replace its regex translation with the RE2-faithful one.
const matchesCost = {
  cost: (a: CelValue[]) => Math.ceil((1 + actualSize(a[0]!)) * STRING_TRAVERSAL) * patternCost(a[1]!),
  estimate: (s: SizeEstimate[]) =>
    costMul(sizeTimes({ min: s[0]!.min + 1, max: s[0]!.max >= MAX_U64 ? MAX_U64 : s[0]!.max + 1 }, STRING_TRAVERSAL), sizeTimes(s[1]!, REGEX_LENGTH)),
};

export const regexLibrary: CelLibrary = {
  name: 'kubernetes.regex',
  functions: [
    {
      name: 'matches',
      overloads: [
        ov('matches', [T.string, T.string], T.bool, (s, re) => regex.matches(str(s), str(re)), matchesCost),
        mem('matches_string', [T.string, T.string], T.bool, (s, re) => regex.matches(str(s), str(re)), matchesCost),
      ],
    },
    { name: 'find', overloads: [mem('string_find_string', [T.string, T.string], T.string, (s, re) => regexCall(() => regex.find(str(s), str(re))), findCost)] },
    {
      name: 'findAll',
      overloads: [
        mem('string_find_all_string', [T.string, T.string], T.list(T.string), (s, re) => regexCall(() => regex.findAll(str(s), str(re))), findCost),
        mem(
          'string_find_all_string_int',
          [T.string, T.string, T.int],
          T.list(T.string),
          (s, re, n) => regexCall(() => regex.findAll(str(s), str(re), clampLimit(int(n)))),
          findCost,
        ),
      ],
    },
  ],
};

/** Go converts the int64 limit with int(n); any negative value means "all". */
function clampLimit(n: bigint): number {
  if (n < 0n) return -1;
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

// ---- URLs ----

export const URL_TYPE = T.opaque('kubernetes.URL');

export class URLValue extends CelOpaque {
  override readonly celType = URL_TYPE;
  constructor(readonly url: U.URLValue) {
    super();
  }
  override equals(other: CelValue): boolean {
    return other instanceof URLValue && U.urlEquals(this.url, other.url);
  }
  override toString(): string {
    return U.urlToString(this.url);
  }
}

const asURL = (v: CelValue) => (v as URLValue).url;

export const urlLibrary: CelLibrary = {
  name: 'kubernetes.urls',
  types: [URL_TYPE],
  functions: [
    {
      name: 'url',
      overloads: [
        ov('string_to_url', [T.string], URL_TYPE, (s) => new URLValue(U.parseURL(str(s))), {
          cost: (a) => traversal(a[0]!),
          estimate: (s) => sizeTimes(s[0]!, STRING_TRAVERSAL),
          resultSize: (s) => s[0]!,
        }),
      ],
    },
    { name: 'getScheme', overloads: [mem('url_get_scheme', [URL_TYPE], T.string, (u) => U.getScheme(asURL(u)), nominal)] },
    { name: 'getHost', overloads: [mem('url_get_host', [URL_TYPE], T.string, (u) => U.getHost(asURL(u)), nominal)] },
    { name: 'getHostname', overloads: [mem('url_get_hostname', [URL_TYPE], T.string, (u) => U.getHostname(asURL(u)), nominal)] },
    { name: 'getPort', overloads: [mem('url_get_port', [URL_TYPE], T.string, (u) => U.getPort(asURL(u)), nominal)] },
    { name: 'getEscapedPath', overloads: [mem('url_get_escaped_path', [URL_TYPE], T.string, (u) => U.getEscapedPath(asURL(u)), nominal)] },
    {
      name: 'getQuery',
      overloads: [
        mem('url_get_query', [URL_TYPE], T.map(T.string, T.list(T.string)), (u) => new CelMap(U.getQuery(asURL(u)).entries()), nominal),
      ],
    },
    { name: 'isURL', overloads: [ov('is_url_string', [T.string], T.bool, (s) => U.isURL(str(s)))] },
  ],
};

// ---- ext strings ----

const V2_MIN = '1.30' as const;

const traverse = (factor: number) => ({
  cost: (a: CelValue[]) => traversal(a[0]!, factor),
  estimate: (s: SizeEstimate[]) => sizeTimes(s[0]!, factor),
});
const sameSize = { resultSize: (s: SizeEstimate[]) => s[0]! };
// indexOf/lastIndexOf on strings: traversalCost (bytes * 0.1, truncated) at runtime, size * 0.1 statically.
const stringIndexCost = {
  cost: (a: CelValue[]) => traversalCost(a[0]!),
  estimate: (s: SizeEstimate[]) => sizeTimes(s[0]!, STRING_TRAVERSAL),
};

function replaceSize(s: SizeEstimate[]): SizeEstimate {
  const sz = s[0]!;
  const from = s[1]!;
  const to = s[2]!;
  const capped = (n: number) => (n >= MAX_U64 ? MAX_U64 : n);
  let countMax: number;
  let retainedMax = 0;
  if (from.min === 0) {
    countMax = capped(sz.max + 1);
    retainedMax = sz.max;
  } else if (to.max <= from.min) {
    countMax = 0;
    retainedMax = sz.max;
  } else countMax = Math.ceil(sz.max / from.min);
  let countMin: number;
  let retainedMin = 0;
  if (from.max === 0) {
    countMin = capped(sz.min + 1);
    retainedMin = sz.min;
  } else if (from.max <= to.min) {
    countMin = 0;
    retainedMin = sz.min;
  } else countMin = Math.ceil(sz.min / from.max);
  const c = costAdd(costMul({ min: countMin, max: countMax }, to), { min: retainedMin, max: retainedMax });
  return c;
}

const replaceCost = { ...traverse(2 * STRING_TRAVERSAL), resultSize: replaceSize };
const splitCost = { ...traverse(2 * STRING_TRAVERSAL), resultSize: (s: SizeEstimate[]) => ({ min: 0, max: s[0]!.max }) };
const joinCost = {
  cost: (_a: CelValue[], r: CelValue) => Math.ceil(actualSize(r) * 2 * STRING_TRAVERSAL),
  // The real estimate multiplies the list size by the element size taken from the schema; only the list
  // size is known here, so this is a lower bound.
  estimate: (s: SizeEstimate[]): CostEstimate => sizeTimes(s[0]!, STRING_TRAVERSAL),
};

export const stringsLibrary: CelLibrary = {
  name: 'cel.lib.ext.strings',
  functions: [
    { name: 'charAt', overloads: [mem('string_char_at_int', [T.string, T.int], T.string, (s, i) => S.charAt(str(s), int(i)))] },
    {
      name: 'indexOf',
      overloads: [
        mem('string_index_of_string', [T.string, T.string], T.int, (s, sub) => S.indexOf(str(s), str(sub)), stringIndexCost),
        mem('string_index_of_string_int', [T.string, T.string, T.int], T.int, (s, sub, o) => S.indexOf(str(s), str(sub), int(o)), stringIndexCost),
      ],
    },
    {
      name: 'lastIndexOf',
      overloads: [
        mem('string_last_index_of_string', [T.string, T.string], T.int, (s, sub) => S.lastIndexOf(str(s), str(sub)), stringIndexCost),
        mem(
          'string_last_index_of_string_int',
          [T.string, T.string, T.int],
          T.int,
          (s, sub, o) => S.lastIndexOf(str(s), str(sub), int(o)),
          stringIndexCost,
        ),
      ],
    },
    { name: 'lowerAscii', overloads: [mem('string_lower_ascii', [T.string], T.string, (s) => S.lowerAscii(str(s)), { ...traverse(STRING_TRAVERSAL), ...sameSize })] },
    { name: 'upperAscii', overloads: [mem('string_upper_ascii', [T.string], T.string, (s) => S.upperAscii(str(s)), { ...traverse(STRING_TRAVERSAL), ...sameSize })] },
    {
      name: 'replace',
      overloads: [
        mem('string_replace_string_string', [T.string, T.string, T.string], T.string, (s, a, b) => S.replace(str(s), str(a), str(b)), replaceCost),
        mem(
          'string_replace_string_string_int',
          [T.string, T.string, T.string, T.int],
          T.string,
          (s, a, b, n) => S.replace(str(s), str(a), str(b), int(n)),
          replaceCost,
        ),
      ],
    },
    {
      name: 'split',
      overloads: [
        mem('string_split_string', [T.string, T.string], T.list(T.string), (s, sep) => S.split(str(s), str(sep)), splitCost),
        mem('string_split_string_int', [T.string, T.string, T.int], T.list(T.string), (s, sep, n) => S.split(str(s), str(sep), int(n)), splitCost),
      ],
    },
    {
      name: 'substring',
      overloads: [
        mem('string_substring_int', [T.string, T.int], T.string, (s, a) => S.substring(str(s), int(a)), { ...traverse(STRING_TRAVERSAL), ...sameSize }),
        mem('string_substring_int_int', [T.string, T.int, T.int], T.string, (s, a, b) => S.substring(str(s), int(a), int(b)), {
          ...traverse(STRING_TRAVERSAL),
          ...sameSize,
        }),
      ],
    },
    { name: 'trim', overloads: [mem('string_trim', [T.string], T.string, (s) => S.trim(str(s)), { ...traverse(STRING_TRAVERSAL), ...sameSize })] },
    {
      name: 'join',
      overloads: [
        mem('list_join', [T.list(T.string)], T.string, (l) => S.join(list(l)), joinCost),
        mem('list_join_string', [T.list(T.string), T.string], T.string, (l, sep) => S.join(list(l), str(sep)), joinCost),
      ],
    },
    // Version 1+ (Kubernetes enables version 2 from 1.30 in the spec's numbering).
    {
      name: 'format',
      minVersion: V2_MIN,
      overloads: [mem('string_format', [T.string, T.list(T.dyn)], T.string, (f, args) => S.formatString(str(f), list(args)))],
    },
    { name: 'strings.quote', minVersion: V2_MIN, overloads: [ov('strings_quote', [T.string], T.string, (s) => S.quote(str(s)))] },
  ],
};

