/// <reference types="vitest/config" />
import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: 'client',
  plugins: [react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }), lingui()],
  build: { outDir: '../dist/client', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    port: 5173,
    // Anchored patterns: a bare '/trpc' would also swallow the module request for /trpc.ts.
    proxy: { '^/trpc/': server, '^/api/': server, '^/v1/': server, '^/v1beta/': server, '^/pg/': server },
  },
});
