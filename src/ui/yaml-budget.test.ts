import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { expandedNodes, expansionProblem } from './yaml-budget.js';

describe('the YAML expansion budget', () => {
  it('counts aliases every time they are used and stops past the budget', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    const bomb = load(lines.join('\n'));
    const t0 = Date.now();
    expect(expandedNodes(bomb, 1000)).toBe(1001);
    expect(expansionProblem(bomb)).toBe('the YAML expands to more than 200000 values (aliases used over and over)');
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('an ordinary document is within', () => {
    expect(expandedNodes(load('a: {b: [1, 2], c: x}'))).toBe(6);
    expect(expansionProblem(load('a: &x [1]\nb: *x\n'))).toBeUndefined();
  });
});
