import { defineConfig } from 'vitest/config';

// Real-client suite: kubectl 1.33 against the Node host (src/hosts/node). One file at a time: each starts
// its own host on a free port and runs kubectl as a child process.
export default defineConfig({
  test: {
    include: ['src/**/*.kubectl.test.ts'],
    environment: 'node',
    testTimeout: 60000,
    hookTimeout: 60000,
    fileParallelism: false,
  },
});
