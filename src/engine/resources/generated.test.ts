import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, GENERATED_PATH, readSwagger } from '../../../scripts/gen-builtins.js';

describe('generated built-in facts', () => {
  it('the committed module is what `npm run gen:builtins` writes', () => {
    const { source, resources, definitions } = generate(readSwagger());
    expect(resources).toBe(40);
    expect(definitions).toBeGreaterThan(300);
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(source);
  });
});
