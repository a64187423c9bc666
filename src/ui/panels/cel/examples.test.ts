// Every example with a schema, evaluated by the engine's playground endpoint: typed like a CRD rule, it
// gives the same result as untyped, and its static estimate is within the limit (so the panel does not
// open on a red "over the estimate limit").
import { describe, expect, it } from 'vitest';
import { evaluatePlaygroundCel } from '../../../engine/endpoints/playground-cel.js';
import { EXAMPLES } from './reference.js';
import { parseSchema, parseVariables } from './variables.js';

describe('CEL examples with a schema', () => {
  const typed = EXAMPLES.filter((e) => e.schema);
  it('the default example has one', () => expect(EXAMPLES[0].schema).toBeTruthy());
  for (const ex of typed) {
    it(ex.label, () => {
      const vars = (parseVariables(ex.variables) as { vars: Record<string, unknown> }).vars;
      const schema = (parseSchema(ex.schema!) as { schema: unknown }).schema;
      const untyped = evaluatePlaygroundCel({ expression: ex.expression, variables: vars }) as Record<string, unknown>;
      const r = evaluatePlaygroundCel({ expression: ex.expression, variables: vars, schemas: { self: schema, oldSelf: schema } }) as {
        value?: unknown;
        error?: { kind: string; message: string };
        estimatedCost: { max: number };
        limits: { estimate: number };
      };
      expect(r.error?.kind, r.error?.message).not.toBe('compile');
      expect(r.value).toEqual(untyped.value);
      expect(r.estimatedCost.max).toBeLessThanOrEqual(r.limits.estimate);
    });
  }
});
