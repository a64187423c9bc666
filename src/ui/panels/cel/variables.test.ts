import { describe, expect, it } from 'vitest';
import { parseVariables } from './variables.js';

describe('parseVariables', () => {
  it('reads a mapping of variables', () => {
    expect(parseVariables('self:\n  replicas: 3\noldSelf: null\n')).toEqual({ vars: { self: { replicas: 3 }, oldSelf: null } });
    expect(parseVariables('')).toEqual({ vars: {} });
    expect(parseVariables('# only a comment\n')).toEqual({ vars: {} });
  });
  it('rejects what is not a mapping, and bad YAML', () => {
    expect(parseVariables('- 1\n- 2')).toEqual({ error: 'variables: expected a mapping of variable names to values, e.g. "self: {replicas: 3}"' });
    const bad = parseVariables('self: [1, 2');
    expect('error' in bad && bad.error.startsWith('variables: ')).toBe(true);
  });
});
