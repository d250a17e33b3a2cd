/// <reference types="vitest/config" />
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Lingui asks for its native macro transform, which npm skips here (see the plugins below).
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1';

const server = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: 'client',
  // Lingui's macros through Babel: its faster native transform ships as an optional package for Node >= 22.19,
  // which npm skips when it runs on an older system Node (npm ci brings Node 24 but runs on the system's).
  plugins: [react(), lingui(), babel({ presets: [linguiTransformerBabelPreset()] })],
  build: { outDir: '../dist/client', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    // Anchored patterns: a bare '/trpc' would also swallow the module request for /trpc.ts.
    proxy: { '^/trpc/': server, '^/api/': server, '^/v1/': server, '^/v1beta/': server, '^/pg/': server },
  },
});
