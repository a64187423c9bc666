// Plain assertion helpers for the runner-agnostic storage conformance suite (no vitest, no Node): each
// throws an Error whose message says what was expected and what came back.

export function fail(message: string): never {
  throw new Error(message);
}

function show(v: unknown): string {
  if (v === undefined) return 'undefined';
  try {
    const s = JSON.stringify(v);
    return s.length > 600 ? `${s.slice(0, 600)}…` : s;
  } catch {
    return String(v);
  }
}

/** Path of the first difference between two JSON-shaped values, or undefined when deeply equal. Keys whose value is undefined count as absent. */
export function firstDifference(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) {
    return `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (Array.isArray(actual) !== Array.isArray(expected)) {
    return `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) {
      return `${path}: expected an array of length ${expected.length}, got length ${actual.length}`;
    }
    for (let i = 0; i < actual.length; i++) {
      const d = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(e)]);
  for (const k of [...keys].sort()) {
    if (a[k] === undefined && e[k] === undefined) continue;
    if (!(k in a) || a[k] === undefined) return `${path}.${k}: missing, expected ${show(e[k])}`;
    if (!(k in e) || e[k] === undefined) return `${path}.${k}: unexpected ${show(a[k])}`;
    const d = firstDifference(a[k], e[k], `${path}.${k}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

export function assertDeepEqual(actual: unknown, expected: unknown, what: string): void {
  const d = firstDifference(actual, expected);
  if (d !== undefined) fail(`${what}: ${d}`);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
  if (!Object.is(actual, expected)) fail(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function assert(cond: unknown, what: string): asserts cond {
  if (!cond) fail(what);
}

/** Awaits `fn()` and returns what it threw; fails when it resolved or threw something else than `type`. */
export async function assertRejects<E extends Error>(
  fn: () => Promise<unknown>,
  type: abstract new (...args: never[]) => E,
  what: string,
): Promise<E> {
  let result: unknown;
  try {
    result = await fn();
  } catch (err) {
    if (err instanceof type) return err;
    return fail(`${what}: expected a ${type.name}, got ${err instanceof Error ? `${err.name}: ${err.message}` : show(err)}`);
  }
  return fail(`${what}: expected a ${type.name}, but it resolved to ${show(result)}`);
}
