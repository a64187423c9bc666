// A budget for YAML that the UI parses with js-yaml: an alias is kept as a shared reference when parsed,
// but anything that walks or serialises the value (JSON.stringify before a request) expands every alias, so
// a few lines of nested aliases ("billion laughs") would stall the tab. expandedNodes counts the values as
// they would be expanded, stopping as soon as the budget is passed, so such a document is refused first.

/** Most values (scalars, lists and mappings, aliases counted each time they are used) a parsed document may expand to. */
export const MAX_EXPANDED_NODES = 200_000;

/** The values `v` expands to, counting at most up to `limit + 1`. */
export function expandedNodes(v: unknown, limit = MAX_EXPANDED_NODES): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (++n > limit) return n;
    if (x === null || typeof x !== 'object') continue;
    for (const c of Array.isArray(x) ? x : Object.values(x)) stack.push(c);
  }
  return n;
}

/** The message for a value past the budget, or undefined when it is within. */
export function expansionProblem(v: unknown, limit = MAX_EXPANDED_NODES): string | undefined {
  return expandedNodes(v, limit) > limit ? `the YAML expands to more than ${limit} values (aliases used over and over)` : undefined;
}
