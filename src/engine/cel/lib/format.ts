// The named formats of the Kubernetes CEL format library (k8s.io/apiserver/pkg/cel/library/format.go):
// `format.named(name)` / `format.<name>()` give a format whose `validate(s)` returns the apimachinery
// validation messages (none when valid). Messages match k8s.io/apimachinery validation and kube-openapi
// strfmt (uuid, byte, date, datetime) as used by Kubernetes 1.33.

import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../../util/validation.js';
import { requestURIError } from './url.js';

export interface NamedFormat {
  readonly kind: 'format';
  /** The Go Format.Name (e.g. "DNS1123Label"); formats compare equal by this name. */
  readonly name: string;
  /** Messages for an invalid value; an empty list when valid. */
  readonly validate: (s: string) => string[];
  /** Size of the regex (or equivalent) used for cost estimation. */
  readonly maxRegexSize: number;
}

/** apimachinery's maskTrailingDash for the *Prefix formats: "abc-" is checked as "aba" (drops two chars). */
function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return name.slice(0, -2) + 'a';
  return name;
}

const UUID_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const DATETIME_PATTERN = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$';
// `.` in the Go pattern is any character except newline.
const TIME_RE = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;
const BASE64_LENGTH = 84;
const URL_LENGTH = 1103;

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** strfmt IsDate: Go time.Parse("2006-01-02", s). */
export function isDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) return false;
  return day >= 1 && day <= daysIn(month, year);
}

/** strfmt IsDateTime: a date, a 't' (any case), then hh:mm:ss[.frac](z|+hh:mm) with hh<=23, mm<=59, ss<=59. */
export function isDateTime(str: string): boolean {
  if (utf8Length(str) < 4) return false;
  const s = str.toLowerCase().split('t');
  if (s.length < 2 || !isDate(s[0]!)) return false;
  const m = TIME_RE.exec(s[1]!);
  if (!m) return false;
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

function fmt(name: string, maxRegexSize: number, validate: (s: string) => string[]): NamedFormat {
  return { kind: 'format', name, validate, maxRegexSize };
}

/** The formats by their CEL names (`format.named('dns1123Label')`, `format.dns1123Label()`). */
export const NAMED_FORMATS: Readonly<Record<string, NamedFormat>> = {
  dns1123Label: fmt('DNS1123Label', 30, (s) => isDNS1123Label(s)),
  dns1123Subdomain: fmt('DNS1123Subdomain', 60, (s) => isDNS1123Subdomain(s)),
  dns1035Label: fmt('DNS1035Label', 30, (s) => isDNS1035Label(s)),
  qualifiedName: fmt('QualifiedName', 60, (s) => isQualifiedName(s)),
  dns1123LabelPrefix: fmt('DNS1123LabelPrefix', 30, (s) => isDNS1123Label(maskTrailingDash(s))),
  dns1123SubdomainPrefix: fmt('DNS1123SubdomainPrefix', 60, (s) => isDNS1123Subdomain(maskTrailingDash(s))),
  dns1035LabelPrefix: fmt('DNS1035LabelPrefix', 30, (s) => isDNS1035Label(maskTrailingDash(s))),
  labelValue: fmt('LabelValue', 40, (s) => isValidLabelValue(s)),
  uri: fmt('URI', URL_LENGTH, (s) => {
    const err = requestURIError(s);
    return err === undefined ? [] : [err];
  }),
  uuid: fmt('uuid', UUID_PATTERN.length, (s) => (UUID_RE.test(s) ? [] : ['does not match the UUID format'])),
  byte: fmt('byte', BASE64_LENGTH, (s) => (BASE64_RE.test(s) ? [] : ['invalid base64'])),
  date: fmt('date', DATETIME_PATTERN.length, (s) => (isDate(s) ? [] : ['invalid date'])),
  datetime: fmt('datetime', DATETIME_PATTERN.length, (s) => (isDateTime(s) ? [] : ['invalid datetime'])),
};

export const FORMAT_NAMES = Object.keys(NAMED_FORMATS);

/** `format.named(name)`: the format, or undefined (optional.none) for an unknown name. */
export function namedFormat(name: string): NamedFormat | undefined {
  return Object.hasOwn(NAMED_FORMATS, name) ? NAMED_FORMATS[name] : undefined;
}

/** `<Format>.validate(s)`: undefined (optional.none) when valid, else the messages. */
export function validateFormat(f: NamedFormat, s: string): string[] | undefined {
  const errs = f.validate(s);
  return errs.length === 0 ? undefined : errs;
}
