import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { firstRouteSizes, overBudget } from './bundle-budget.ts';
import { type RouteChunks, routeChunks, routesOf } from './route-chunks.ts';

/*
 * Three build steps of the console (vite.config.ts), issue 45:
 * - route-chunks.json beside index.html: for each route of client/routes.tsx, the page's own chunks, which the
 *   server preloads with the HTML (server/plugins/console-html.ts), and the default (Chinese) catalog;
 * - every hashed file under assets/ gets a .br and a .gz beside it, compressed once at build time at the
 *   strongest levels, which the server sends as they are (@fastify/static `preCompressed`, server/app.ts);
 * - the JavaScript a first screen needs (the entry, what it imports, the opened page's chunk and what that
 *   imports, the Chinese catalog) is weighed, gzipped, for each page in scripts/perf-budget.json, and the
 *   build fails when one weighs more than the budget there.
 */

const COMPRESSIBLE = /\.(js|css|svg|json|txt|wasm)$/;
/** Smaller files gain nothing worth a second request header's bytes. */
const MIN_BYTES = 1024;

export function compressFile(file: string): void {
  const bytes = readFileSync(file);
  if (bytes.length < MIN_BYTES) return;
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  );
}

/** The default language's catalog: every cold start needs it. */
const CATALOG = 'client/locales/zh.ts';

interface Budget {
  firstRoute: { gzipKiB: number; pages: string[] };
}

export function consoleBuild(): Plugin {
  let production = true;
  return {
    name: 'switchyard-console-build',
    apply: 'build',
    configResolved(config) {
      production = config.isProduction;
    },
    writeBundle(options, bundle) {
      const dir = options.dir!;
      for (const name of Object.keys(bundle))
        if (name.startsWith('assets/') && COMPRESSIBLE.test(name)) compressFile(path.join(dir, name));

      const budget = JSON.parse(readFileSync(path.join(import.meta.dirname, 'perf-budget.json'), 'utf8')) as Budget;
      const chunks = Object.values(bundle).flatMap((c) =>
        c.type === 'chunk'
          ? [
              {
                fileName: c.fileName,
                code: c.code,
                imports: c.imports,
                isEntry: c.isEntry,
                moduleIds: c.moduleIds,
                css: [...(c.viteMetadata?.importedCss ?? [])],
              },
            ]
          : [],
      );
      const routesSource = readFileSync(path.join(import.meta.dirname, '../client/routes.tsx'), 'utf8');
      const map: RouteChunks & { catalog?: string } = routeChunks(chunks, routesOf(routesSource));
      map.catalog = `/${chunks.find((c) => c.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(CATALOG)))?.fileName}`;
      writeFileSync(path.join(dir, 'route-chunks.json'), JSON.stringify(map));

      const sizes = firstRouteSizes(chunks, budget.firstRoute.pages, CATALOG);
      for (const s of sizes)
        this.info(
          `first screen of ${s.page}: ${s.files.length} scripts, ${(s.gzipBytes / 1024).toFixed(1)} KiB gzipped`,
        );
      const problems = overBudget(sizes, budget.firstRoute.gzipKiB);
      // React's development code (NODE_ENV other than production) is not what ships: weighed, not judged.
      if (problems.length && !production)
        this.warn(`not a production build, budget not applied:\n${problems.join('\n')}`);
      else if (problems.length) this.error(problems.join('\n'));
    },
  };
}
