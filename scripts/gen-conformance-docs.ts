import { writeFileSync } from 'node:fs';
import { readAllResults, renderConformanceDocs, renderMatrixText } from '../test/conformance/render.ts';

/*
 * `npm run docs:conformance`: rewrites docs/conformance.md from the last conformance run
 * (test-artifacts/conformance/*.json, written by `npx vitest run test/conformance`) and the last run of the
 * real agent clients (test-artifacts/agents/matrix.json, written by `npx vitest run --project agents`).
 * `--print` prints both matrices instead (CI, after the test run) and writes nothing.
 */
const all = readAllResults();
if (process.argv.includes('--print')) {
  console.log(renderMatrixText(all));
} else {
  const target = new URL('../docs/conformance.md', import.meta.url);
  writeFileSync(target, renderConformanceDocs(all));
  console.log(`wrote ${target.pathname}`);
}
