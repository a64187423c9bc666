// Minimal RE2 -> JavaScript RegExp translation for `matches` (RE2 has no backreferences or lookaround;
// flags come as a `(?flags)` prefix; `\z`, `\A`, POSIX classes and `\pN` classes differ from JS).

import { CelError } from './values.js';

const cache = new Map<string, RegExp>();

export function compileRe2(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  re = translate(pattern);
  if (cache.size > 500) cache.clear();
  cache.set(pattern, re);
  return re;
}

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z',
  word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

function translate(p: string): RegExp {
  let flags = 'u';
  let src = p;
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1]) {
      if (f === 'i' && !flags.includes('i')) flags += 'i';
      if (f === 's' && !flags.includes('s')) flags += 's';
      if (f === 'm' && !flags.includes('m')) flags += 'm';
    }
    src = src.slice(lead[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined) throw new CelError(`error parsing regexp: trailing backslash at end of expression: \`\``);
      if (n >= '1' && n <= '9' && !inClass) throw new CelError(`error parsing regexp: invalid escape sequence: \`\\${n}\``);
      if (n === 'z') {
        out += '$(?![\\s\\S])';
        i++;
        continue;
      }
      if (n === 'A') {
        out += '^';
        i++;
        continue;
      }
      if ((n === 'p' || n === 'P') && src[i + 2] !== '{') {
        out += `\\${n}{${src[i + 2]}}`;
        i += 2;
        continue;
      }
      out += c + n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && src[i + 1] === ':') {
        const end = src.indexOf(':]', i + 2);
        if (end > 0) {
          let name = src.slice(i + 2, end);
          const neg = name.startsWith('^');
          if (neg) name = name.slice(1);
          const cls = POSIX[name];
          if (!cls) throw new CelError(`error parsing regexp: invalid character class range: \`[:${name}:]\``);
          if (neg) throw new CelError('negated POSIX classes are not supported');
          out += cls;
          i = end + 1;
          continue;
        }
      }
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (src[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (src[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && src[i + 1] === '?') {
      const rest = src.slice(i + 2);
      if (rest.startsWith('P<')) {
        out += '(?<';
        i += 3;
        continue;
      }
      if (rest.startsWith('=') || rest.startsWith('!') || rest.startsWith('<=') || rest.startsWith('<!')) {
        throw new CelError(`error parsing regexp: invalid or unsupported Perl syntax: \`(?${rest[0]}\``);
      }
      const fl = /^([imsU-]*):/.exec(rest);
      if (fl) {
        // inline flag groups: JS (ES2025) supports (?i:...) modifiers; strip unsupported ones
        const f = fl[1].replace(/[U]/g, '');
        out += f ? `(?${f}:` : '(?:';
        i += 1 + fl[0].length;
        continue;
      }
    }
    out += c;
  }
  try {
    return new RegExp(out, flags);
  } catch {
    try {
      return new RegExp(out, flags.replace('u', ''));
    } catch (e) {
      throw new CelError(`error parsing regexp: ${(e as Error).message}`);
    }
  }
}
