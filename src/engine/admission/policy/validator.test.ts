// The evaluation of a compiled policy for paths the API cannot reach: a policy whose expressions no longer
// compile (the server refuses such a policy when it is written, but one stored earlier keeps its text) is
// an error decided by failurePolicy, with the real message.
import { describe, expect, it } from 'vitest';
import { authorizerValue, requestResourceValue } from '../../cel/lib/index.js';
import type { KubeObject } from '../../object.js';
import { compilePolicy } from './compile.js';
import { validate, type ValidateInput } from './validator.js';

const authz = authorizerValue({ user: 'admin', groups: ['system:masters'] });
const input: ValidateInput = {
  object: { metadata: { name: 'a' } }, oldObject: null, params: null, request: { operation: 'CREATE' }, namespaceObject: null,
  authorizer: authz, requestResource: requestResourceValue(authz, { group: '', resource: 'configmaps' }),
};
const stored = (failurePolicy: string, spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'p' }, spec: { failurePolicy, ...spec } });
const COMPILE = "compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^";

describe('an expression that does not compile', () => {
  it('Fail: a denial with the compilation error', () => {
    const r = validate(compilePolicy(stored('Fail', { validations: [{ expression: 'nope' }] })), input);
    expect(r.decisions).toEqual([{ action: 'deny', evaluation: 'error', message: COMPILE }]);
  });

  it('Ignore: admitted', () => {
    const r = validate(compilePolicy(stored('Ignore', { validations: [{ expression: 'nope' }] })), input);
    expect(r.decisions).toEqual([{ action: 'admit', evaluation: 'error', message: COMPILE }]);
  });

  it('a variable that does not compile fails the expressions that read it', () => {
    const r = validate(compilePolicy(stored('Fail', { variables: [{ name: 'v', expression: 'nope' }], validations: [{ expression: 'variables.v == 1' }] })), input);
    expect(r.decisions[0].message).toBe(
      `expression 'variables.v == 1' resulted in error: composited variable "v" fails to compile: compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^`,
    );
  });

  it('a matchCondition that does not compile: the errors of all conditions, bracketed when several', () => {
    const r = validate(compilePolicy(stored('Fail', { matchConditions: [{ name: 'a', expression: 'nope' }, { name: 'b', expression: 'nope' }], validations: [{ expression: 'false' }] })), input);
    expect(r.decisions).toEqual([{ action: 'deny', evaluation: 'error', message: `[${COMPILE}, ${COMPILE}]` }]);
  });

  it('a matchCondition that is false skips the policy before an error of another', () => {
    const r = validate(compilePolicy(stored('Fail', { matchConditions: [{ name: 'a', expression: 'nope' }, { name: 'b', expression: 'false' }], validations: [{ expression: 'false' }] })), input);
    expect(r.decisions).toEqual([]);
  });
});
