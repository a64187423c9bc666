// Command lines as a POSIX shell splits them (enough of it for kubectl commands): whitespace separates words,
// single quotes keep everything literally, double quotes keep whitespace and allow \" and \\, a backslash
// outside quotes escapes the next character. No expansion of any kind is done: the terminal runs no shell.

export type SplitResult = { ok: true; words: string[] } | { ok: false; error: string };

export function splitCommandLine(line: string): SplitResult {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { ok: false, error: 'unterminated single quote' };
      cur += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      i++;
      for (; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) i++;
        cur += line[i];
      }
      if (i >= line.length) return { ok: false, error: 'unterminated double quote' };
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < line.length) cur += line[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return { ok: true, words };
}

/** Flags kubectl's terminal commands take, and their positional arguments. */
export interface ParsedArgs {
  positional: string[];
  /** Last value of each flag (booleans as "true"); repeated flags also in `all`. */
  flags: Map<string, string>;
  all: Map<string, string[]>;
}

/** Flags that never take a separate value word (`--all-namespaces x` keeps x positional). */
const BOOLEAN_FLAGS = new Set([
  'A', 'all-namespaces', 'show-labels', 'show-managed-fields', 'watch', 'w', 'overwrite', 'server-side', 'force-conflicts', 'list', 'no-headers', 'recursive', 'all', 'ignore-not-found', 'now', 'h', 'help', 'namespaced', 'no-headers', 'wait',
]);

/** Short flags and their long names. */
const ALIASES: Record<string, string> = { n: 'namespace', o: 'output', l: 'selector', f: 'filename', A: 'all-namespaces', w: 'watch', h: 'help' };

export function parseArgs(words: string[]): ParsedArgs | { error: string } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const all = new Map<string, string[]>();
  const set = (k: string, v: string) => {
    const name = ALIASES[k] ?? k;
    flags.set(name, v);
    all.set(name, [...(all.get(name) ?? []), v]);
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '--') {
      positional.push(...words.slice(i + 1));
      break;
    }
    if (w.startsWith('--') && w.length > 2) {
      const eq = w.indexOf('=');
      if (eq > 0) set(w.slice(2, eq), w.slice(eq + 1));
      else {
        const name = w.slice(2);
        if (BOOLEAN_FLAGS.has(name)) set(name, 'true');
        else if (i + 1 < words.length) set(name, words[++i]);
        else return { error: `flag needs an argument: --${name}` };
      }
    } else if (w.startsWith('-') && w.length > 1 && w !== '-') {
      const name = w[1];
      const rest = w.slice(2);
      if (BOOLEAN_FLAGS.has(name)) {
        set(name, 'true');
        if (rest) return { error: `unknown shorthand flag: '${rest[0]}' in ${w}` };
      } else if (rest) set(name, rest.startsWith('=') ? rest.slice(1) : rest);
      else if (i + 1 < words.length) set(name, words[++i]);
      else return { error: `flag needs an argument: '${name}' in -${name}` };
    } else positional.push(w);
  }
  return { positional, flags, all };
}
