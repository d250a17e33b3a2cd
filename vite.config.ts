/// <reference types="vitest/config" />
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vite';
import { consoleBuild } from './scripts/console-build.ts';

// Lingui asks for its native macro transform, which npm skips here (see the plugins below).
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1';

const server = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

const lib = (names: string) => new RegExp(`[\\\\/]node_modules[\\\\/](${names})[\\\\/]`);

/*
 * Chunks by how often their code changes (issue 45): left alone, the bundler cut the console into ~240 files,
 * one per shared Mantine component and icon, and a first screen fetched ~140 of them. Libraries are grouped by
 * release cadence (a new console build keeps their file names, so a browser keeps them cached), the shell every
 * page runs is one chunk, the code several pages share another, and every page stays lazy as one chunk of its
 * own. Libraries only some pages need (charts, date pickers, markdown, QR codes, passkeys) never enter the shared
 * chunk, not even through a shared component of ours that uses them: they come with the pages that need them.
 * scripts/perf-budget.json caps what a first screen loads (scripts/console-build.ts).
 */
const HEAVY = /^(@mantine\/(charts|dates)|dayjs|recharts|marked|qrcode|@simplewebauthn\/browser)(\/|$)/;
const heavy = new Map<string, boolean>();
/** Whether a module of ours imports, itself or through our other modules, a library only some pages need. */
function importsHeavyLibrary(id: string): boolean {
  const known = heavy.get(id);
  if (known !== undefined) return known;
  heavy.set(id, false); // an import cycle ends here
  const found = [...readFileSync(id, 'utf8').matchAll(/^(?:import|export)[^;]*? from '([^']+)'/gm)].some(
    ([, spec]) =>
      HEAVY.test(spec) ||
      (spec.startsWith('.') && /\.tsx?$/.test(spec) && importsHeavyLibrary(path.resolve(path.dirname(id), spec))),
  );
  heavy.set(id, found);
  return found;
}

const mantine = lib(
  '@mantine[\\\\/](core|hooks|modals|notifications|form|store)|mantine-datatable|@floating-ui|clsx|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|detect-node-es|tslib|react-number-format|react-textarea-autosize|use-composed-ref|use-isomorphic-layout-effect|use-latest|react-is|use-sync-external-store',
);

const chunkGroups = [
  { name: 'react', test: lib('react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser') },
  { name: 'data', test: lib('@tanstack|@trpc') },
  { name: 'i18n', test: lib('@lingui|@messageformat|messageformat-parser') },
  { name: 'icons', test: lib('@tabler') },
  // Mantine and the small helpers its components (and the charts) are built from.
  { name: 'mantine', test: mantine },
  { name: 'zod', test: lib('zod') },
  // The shell: our code every page runs (layout, router, query client), statically imported by the entry.
  // (main.tsx itself stays the entry: index.html then loads one script and preloads the rest.)
  {
    name: 'shell',
    test: (id: string) => /[\\/](client|shared)[\\/].*\.(tsx?|css)$/.test(id) && !/[\\/]client[\\/]main\.tsx$/.test(id),
    tags: ['$initial' as const],
  },
  // Our components and helpers that several pages share: one chunk, not one per importing set of pages. A
  // module that imports a library only some pages need stays out, so this chunk never pulls that library in.
  {
    name: 'console',
    test: (id: string) =>
      /[\\/](client|shared)[\\/].*\.tsx?$/.test(id) && !/[\\/]node_modules[\\/]/.test(id) && !importsHeavyLibrary(id),
    minShareCount: 2,
  },
  // Pages that need a date picker or a chart fetch these; the others never do.
  { name: 'dates', test: lib('@mantine[\\\\/]dates|dayjs') },
  {
    name: 'charts',
    test: lib('@mantine[\\\\/]charts|recharts|d3-[a-z-]+|victory-vendor|internmap|decimal\\.js-light'),
  },
].map((g, i, all) => ({ ...g, priority: all.length - i }));

export default defineConfig({
  root: 'client',
  // Lingui's macros through Babel: its faster native transform ships as an optional package for Node >= 22.19,
  // which npm skips when it runs on an older system Node (npm ci brings Node 24 but runs on the system's).
  plugins: [react(), lingui(), babel({ presets: [linguiTransformerBabelPreset()] }), consoleBuild()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: { output: { codeSplitting: { groups: chunkGroups } } },
  },
  server: {
    port: 5173,
    // Anchored patterns: a bare '/trpc' would also swallow the module request for /trpc.ts.
    proxy: { '^/trpc/': server, '^/api/': server, '^/v1/': server, '^/v1beta/': server, '^/pg/': server },
  },
});
