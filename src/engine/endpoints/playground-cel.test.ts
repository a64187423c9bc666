import { describe, expect, it } from 'vitest';
import { evaluatePlaygroundCel } from './playground-cel.js';
import { StatusError } from '../errors.js';

const self = { replicas: 3, minReplicas: 1, maxReplicas: 5, image: 'registry.example.com/web:1.4.2', labels: { app: 'web' } };
const schema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    minReplicas: { type: 'integer' },
    maxReplicas: { type: 'integer' },
    image: { type: 'string', maxLength: 256 },
    labels: { type: 'object', maxProperties: 64, additionalProperties: { type: 'string', maxLength: 63 } },
  },
};
const expression = 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas';

describe('POST /x-playground/cel with schemas', () => {
  it('untyped (dyn) variables: the estimate assumes unbounded sizes, over the limit', () => {
    const r = evaluatePlaygroundCel({ expression, variables: { self } }) as { value: unknown; estimatedCost: { max: number }; limits: { estimate: number } };
    expect(r.value).toBe(true);
    expect(r.estimatedCost.max).toBeGreaterThan(r.limits.estimate);
  });
  it('a variable with a schema is typed as a CRD field of that schema: a small estimate, the same value', () => {
    const r = evaluatePlaygroundCel({ expression, variables: { self }, schemas: { self: schema } }) as { value: unknown; type: string; estimatedCost: { min: number; max: number } };
    expect(r.value).toBe(true);
    expect(r.type).toBe('bool');
    expect(r.estimatedCost.max).toBeLessThan(100);
  });
  it('a typed variable is checked against its schema at compile time', () => {
    const r = evaluatePlaygroundCel({ expression: 'self.nope == 1', variables: { self }, schemas: { self: schema } }) as { error: { kind: string; message: string } };
    expect(r.error.kind).toBe('compile');
    expect(r.error.message).toContain('nope');
  });
  it('bad schemas are a 400', () => {
    expect(() => evaluatePlaygroundCel({ expression, variables: { self }, schemas: [] })).toThrow(StatusError);
    expect(() => evaluatePlaygroundCel({ expression, variables: { self }, schemas: { self: 'x' } })).toThrow('schemas.self: expected an OpenAPI v3 schema object');
  });
});
