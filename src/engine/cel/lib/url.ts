// URLs with Go net/url semantics, as the Kubernetes CEL URL library uses them
// (k8s.io/apiserver/pkg/cel/library/urls.go): `url()`/`isURL()` validate with ParseRequestURI (absolute
// URI or absolute path, no fragment handling), and the value is then built with url.Parse (which splits
// off the fragment). Accessors: scheme, host, hostname (IPv6 brackets stripped), port, escaped path, query.
//
// Go strings are bytes: the parser works on the UTF-8 bytes of the input held in a "byte string" (one JS
// char per byte) and converts results back to text.

import { goQuote } from '../../codec/go-format.js';

export interface URLValue {
  readonly kind: 'url';
  readonly scheme: string;
  readonly opaque: string;
  readonly user?: { username: string; password?: string };
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly omitHost: boolean;
  readonly forceQuery: boolean;
  readonly rawQuery: string;
  readonly fragment: string;
  readonly rawFragment: string;
}

export class URLParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'URLParseError';
  }
}

// ---- byte strings ----

function toBytes(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch;
    else if (cp < 0x800) out += String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out += String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else
      out += String.fromCharCode(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return out;
}

/** UTF-8 decoding of a byte string; invalid sequences become U+FFFD (as CEL strings would show them). */
function fromBytes(b: string): string {
  let out = '';
  for (let i = 0; i < b.length; ) {
    const c = b.charCodeAt(i);
    if (c < 0x80) {
      out += b[i++];
      continue;
    }
    const need = c >= 0xf0 && c < 0xf8 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
    let cp = need === 3 ? c & 7 : need === 2 ? c & 15 : c & 31;
    let ok = need > 0 && i + need < b.length;
    for (let k = 1; ok && k <= need; k++) {
      const cc = b.charCodeAt(i + k);
      if (Number.isNaN(cc) || (cc & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (cc & 63);
    }
    if (ok && ((need === 2 && cp < 0x800) || (need === 3 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))) ok = false;
    if (ok) {
      out += String.fromCodePoint(cp);
      i += need + 1;
    } else {
      out += '\ufffd';
      i++;
    }
  }
  return out;
}

// ---- escaping (net/url) ----

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

function isAlnumByte(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlnumByte(c)) return false;
  if (mode === 'host' || mode === 'zone') {
    if ("!$&'()*+,;=:[]<>\"".includes(c)) return false;
  }
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'path':
        return c === '?';
      case 'pathSegment':
        return c === '/' || c === ';' || c === ',' || c === '?';
      case 'userPassword':
        return c === '@' || c === '/' || c === '?' || c === ':';
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const unhex = (c: string) => parseInt(c, 16);

function escapeError(s: string): URLParseError {
  return new URLParseError(`invalid URL escape ${goQuote(fromBytes(s))}`);
}

function unescape(s: string, mode: Mode): string {
  let n = 0;
  let hasPlus = false;
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '%') {
      n++;
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        throw escapeError(s.slice(i, i + 3));
      }
      if (mode === 'host' && unhex(s[i + 1]!) < 8 && s.slice(i, i + 3) !== '%25') throw escapeError(s.slice(i, i + 3));
      if (mode === 'zone') {
        const v = String.fromCharCode(unhex(s[i + 1]!) * 16 + unhex(s[i + 2]!));
        if (s.slice(i, i + 3) !== '%25' && v !== ' ' && shouldEscape(v, 'host')) throw escapeError(s.slice(i, i + 3));
      }
      i += 3;
    } else if (c === '+') {
      hasPlus = mode === 'queryComponent';
      i++;
    } else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode)) {
        throw new URLParseError(`invalid character ${goQuote(c)} in host name`);
      }
      i++;
    }
  }
  if (n === 0 && !hasPlus) return s;
  let t = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      t += String.fromCharCode(unhex(s[i + 1]!) * 16 + unhex(s[i + 2]!));
      i += 2;
    } else if (c === '+') t += mode === 'queryComponent' ? ' ' : '+';
    else t += c;
  }
  return t;
}

function escape(s: string, mode: Mode): string {
  let t = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === ' ' && mode === 'queryComponent') t += '+';
    else if (shouldEscape(c, mode)) t += '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
    else t += c;
  }
  return t;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

// ---- parsing ----

function splitScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c === '+' || c === '-' || c === '.') {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new URLParseError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  for (const c of port.slice(1)) if (c < '0' || c > '9') return false;
  return true;
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new URLParseError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new URLParseError(`invalid port ${goQuote(fromBytes(colonPort))} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, i), 'zone') + unescape(host.slice(i), 'host');
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new URLParseError(`invalid port ${goQuote(fromBytes(colonPort))} after host`);
    }
  }
  return unescape(host, 'host');
}

function validUserinfo(s: string): boolean {
  for (const c of s) {
    if (isAlnumByte(c)) continue;
    if ("-._:~!$&'()*+,;=%@".includes(c)) continue;
    return false;
  }
  return true;
}

interface MutableURL {
  scheme: string;
  opaque: string;
  user?: { username: string; password?: string };
  host: string;
  path: string;
  rawPath: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

function parseInner(raw: string, viaRequest: boolean): MutableURL {
  for (let i = 0; i < raw.length; i++) {
    const b = raw.charCodeAt(i);
    if (b < 0x20 || b === 0x7f) throw new URLParseError('net/url: invalid control character in URL');
  }
  if (raw === '' && viaRequest) throw new URLParseError('empty url');
  const u: MutableURL = {
    scheme: '', opaque: '', host: '', path: '', rawPath: '', omitHost: false, forceQuery: false, rawQuery: '', fragment: '', rawFragment: '',
  };
  if (raw === '*') {
    u.path = '*';
    return u;
  }
  let [scheme, rest] = splitScheme(raw);
  u.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') {
      u.opaque = rest;
      return u;
    }
    if (viaRequest) throw new URLParseError('invalid URI for request');
    const seg = rest.split('/')[0]!;
    if (seg.includes(':')) throw new URLParseError('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    const at = authority.lastIndexOf('@');
    u.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!validUserinfo(userinfo)) throw new URLParseError('net/url: invalid userinfo');
      const colon = userinfo.indexOf(':');
      if (colon < 0) u.user = { username: unescape(userinfo, 'userPassword') };
      else {
        u.user = {
          username: unescape(userinfo.slice(0, colon), 'userPassword'),
          password: unescape(userinfo.slice(colon + 1), 'userPassword'),
        };
      }
    }
  } else if (u.scheme !== '' && rest.startsWith('/')) {
    u.omitHost = true;
  }
  const path = unescape(rest, 'path');
  u.path = path;
  u.rawPath = escape(path, 'path') === rest ? '' : rest;
  return u;
}

function wrap(rawForMessage: string, e: unknown): URLParseError {
  const inner = e instanceof Error ? e.message : String(e);
  return new URLParseError(`parse ${goQuote(fromBytes(rawForMessage))}: ${inner}`);
}

function freeze(u: MutableURL): URLValue {
  return { kind: 'url', ...u };
}

/** Go url.ParseRequestURI: absolute URI or absolute path; the fragment is not split off. */
export function parseRequestURI(raw: string): URLValue {
  const b = toBytes(raw);
  try {
    return freeze(parseInner(b, true));
  } catch (e) {
    throw wrap(b, e);
  }
}

/** Go url.Parse: the fragment after '#' is split off first. */
export function goParseURL(raw: string): URLValue {
  const b = toBytes(raw);
  const hash = b.indexOf('#');
  const main = hash < 0 ? b : b.slice(0, hash);
  let u: MutableURL;
  try {
    u = parseInner(main, false);
  } catch (e) {
    throw wrap(main, e);
  }
  if (hash >= 0) {
    const f = b.slice(hash + 1);
    if (f !== '') {
      try {
        u.fragment = unescape(f, 'fragment');
      } catch (e) {
        throw wrap(b, e);
      }
      u.rawFragment = escape(u.fragment, 'fragment') === f ? '' : f;
    }
  }
  return freeze(u);
}

/** The library's `url(string)`: ParseRequestURI to validate, url.Parse for the value. */
export function parseURL(raw: string): URLValue {
  const prefix = 'URL parse error during conversion from string: ';
  try {
    parseRequestURI(raw);
    return goParseURL(raw);
  } catch (e) {
    throw new URLParseError(prefix + (e as Error).message);
  }
}

/** The library's `isURL(string)`: ParseRequestURI succeeds. */
export function isURL(raw: string): boolean {
  try {
    parseRequestURI(raw);
    return true;
  } catch {
    return false;
  }
}

/** The error text `format.uri().validate()` reports (ParseRequestURI's error), or undefined when valid. */
export function requestURIError(raw: string): string | undefined {
  try {
    parseRequestURI(raw);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

// ---- accessors ----

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

export function getScheme(u: URLValue): string {
  return fromBytes(u.scheme);
}

export function getHost(u: URLValue): string {
  return fromBytes(u.host);
}

export function getHostname(u: URLValue): string {
  return fromBytes(splitHostPort(u.host)[0]);
}

export function getPort(u: URLValue): string {
  return fromBytes(splitHostPort(u.host)[1]);
}

function escapedPathBytes(u: URLValue): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, 'path')) {
    try {
      if (unescape(u.rawPath, 'path') === u.path) return u.rawPath;
    } catch {
      // fall through
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

export function getEscapedPath(u: URLValue): string {
  return fromBytes(escapedPathBytes(u));
}

/** Go URL.Query(): ParseQuery ignoring errors; pairs with ';' or bad escapes are dropped. Keys in first-seen order. */
export function getQuery(u: URLValue): Map<string, string[]> {
  const m = new Map<string, string[]>();
  let query = u.rawQuery;
  while (query !== '') {
    let key: string;
    const amp = query.indexOf('&');
    if (amp >= 0) {
      key = query.slice(0, amp);
      query = query.slice(amp + 1);
    } else {
      key = query;
      query = '';
    }
    if (key.includes(';') || key === '') continue;
    const eq = key.indexOf('=');
    let k = eq >= 0 ? key.slice(0, eq) : key;
    let v = eq >= 0 ? key.slice(eq + 1) : '';
    try {
      k = fromBytes(unescape(k, 'queryComponent'));
      v = fromBytes(unescape(v, 'queryComponent'));
    } catch {
      continue;
    }
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  }
  return m;
}

function escapedFragmentBytes(u: URLValue): string {
  if (u.rawFragment !== '' && validEncoded(u.rawFragment, 'fragment')) {
    try {
      if (unescape(u.rawFragment, 'fragment') === u.fragment) return u.rawFragment;
    } catch {
      // fall through
    }
  }
  return escape(u.fragment, 'fragment');
}

/** Go URL.String() (used for equality of URL values). */
export function urlToString(u: URLValue): string {
  let buf = '';
  if (u.scheme !== '') buf += u.scheme + ':';
  if (u.opaque !== '') buf += u.opaque;
  else {
    if (u.scheme !== '' || u.host !== '' || u.user) {
      if (!(u.omitHost && u.host === '' && !u.user)) {
        if (u.host !== '' || u.path !== '' || u.user) buf += '//';
        if (u.user) {
          buf += escape(u.user.username, 'userPassword');
          if (u.user.password !== undefined) buf += ':' + escape(u.user.password, 'userPassword');
          buf += '@';
        }
        if (u.host !== '') buf += escape(u.host, 'host');
      }
    }
    const path = escapedPathBytes(u);
    if (path !== '' && path[0] !== '/' && u.host !== '') buf += '/';
    if (buf === '' && path.split('/')[0]!.includes(':')) buf += './';
    buf += path;
  }
  if (u.forceQuery || u.rawQuery !== '') buf += '?' + u.rawQuery;
  if (u.fragment !== '') buf += '#' + escapedFragmentBytes(u);
  return fromBytes(buf);
}

export function urlEquals(a: URLValue, b: URLValue): boolean {
  return urlToString(a) === urlToString(b);
}
