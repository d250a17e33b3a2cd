import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { POSTGRES_SUITES } from './test/postgres-suites.ts';

// Lingui asks for its native macro transform, which npm skips here (see the plugins below).
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1';

const shared = {
  environment: 'node' as const,
  testTimeout: 20_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Browser tests start Chromium and a server; keep the machine's two cores from thrashing.
    maxWorkers: 2,
    // The last lines of a run say which suites were skipped and what would run them.
    reporters: ['default', './test/skips/summary-reporter.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: [
            'server/**/*.test.ts',
            'shared/**/*.test.ts',
            'scripts/**/*.test.ts',
            'test/**/*.test.ts',
            'client/**/*.test.ts',
          ],
          exclude: [
            'test/browser/**',
            'test/agents/**',
            'test/docker/**',
            '**/node_modules/**',
            'client/**/*.i18n.test.ts',
            'test/ci-budget.test.ts',
          ],
        },
      },
      {
        // Console code that speaks through Lingui (macros, .po catalogs), compiled as the build does.
        plugins: [react(), lingui(), babel({ presets: [linguiTransformerBabelPreset()] })],
        test: { ...shared, name: 'i18n', include: ['client/**/*.i18n.test.ts'] },
      },
      {
        test: {
          ...shared,
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // Builds the console into dist/client once per run (SKIP_CLIENT_BUILD=1 reuses the last build).
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // After the unit tests, named: Vitest 5 runs a one-file-at-a-time project left at group 0 after every
          // numbered group, which put the browser tests after the container tests and the budget.
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...shared,
          name: 'agents',
          include: ['test/agents/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          // Installs the pinned real clients (test/agents/clients/) when missing; a no-op otherwise.
          globalSetup: ['test/agents/global-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 120_000,
          // Two client runs at a time (the machine has two cores; each client is a heavy process).
          maxConcurrency: 2,
          // After the browser tests, beside the container tests (see below).
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          ...shared,
          name: 'docker',
          include: ['test/docker/**/*.test.ts'],
          // Containers add network interfaces, and Chromium aborts page loads on such a change
          // (ERR_NETWORK_CHANGED): this group starts once the browser tests are done.
          sequence: { groupOrder: 2 },
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
      // CI's PostgreSQL pass (`TEST_SQL_DSN=postgres://… npx vitest run --project postgres`): only the suites the SQL
      // dialect can change, named in test/postgres-suites.ts; the rest ran once on SQLite already.
      ...(process.env.TEST_SQL_DSN
        ? [{ test: { ...shared, name: 'postgres', include: POSTGRES_SUITES, exclude: ['**/node_modules/**'] } }]
        : []),
      {
        test: {
          ...shared,
          name: 'budget',
          include: ['test/ci-budget.test.ts'],
          // Last of all, so the time it reads is the whole run's (.ci/run writes the phase times it compares).
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
