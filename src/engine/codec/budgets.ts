// The budgets every request body is held to (docs/design.md 12). A budget exceeded is a 4xx Status, never a
// 500, a stack overflow or a blocked event loop.
//
// Nesting: Go's JSON scanner allows 10000 levels and go-yaml as many; the real server's code is iterative
// or runs on goroutine stacks that grow to 1 GB. Here the decoded value is walked by recursive code
// (pruning, schema validation, patches, managedFields, CEL), and a JS stack (about 1 MB in Node and in
// Chromium's service worker) holds a few thousand of those frames. So every decoder stops at 1000
// levels, with the real decoder's message for its own limit (`exceeded max depth`), and values the
// server builds from bodies (a JSON patch result) are held to the same bound.

/** The real server's default MaxRequestBodyBytes (3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** Containers (objects, arrays; messages in protobuf) nested in a decoded body, at most. */
export const MAX_NESTING_DEPTH = 1000;

/**
 * The nesting depth of a JSON value (a scalar is 0, `{}` and `[]` are 1), walked without recursion; stops
 * counting once it passes `limit` (so a deep value costs no more than its first `limit + 1` levels).
 */
export function nestingDepth(value: unknown, limit = Infinity): number {
  if (value === null || typeof value !== 'object') return 0;
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > max) {
      max = d;
      if (max > limit) return max;
    }
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push([x, d + 1]);
    } else {
      for (const k in v as Record<string, unknown>) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === 'object') stack.push([x, d + 1]);
      }
    }
  }
  return max;
}
