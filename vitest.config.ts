import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'server/**/*.test.ts',
      'shared/**/*.test.ts',
      'scripts/**/*.test.ts',
      'test/**/*.test.ts',
      'client/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Browser tests start Chromium and a server; keep the machine's two cores from thrashing.
    maxWorkers: 2,
  },
});
