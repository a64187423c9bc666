import { defineConfig } from 'vitest/config';

// Unit and HTTP tests: everything under src/ that runs in Node (`*.test.ts` beside the code).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'src/**/*.kubectl.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    pool: 'threads',
  },
});
