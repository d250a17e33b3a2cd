import { readFileSync, writeFileSync } from 'node:fs';
import { imageSection } from '../test/conformance/image-matrix.ts';

/*
 * `node --import tsx scripts/image-conformance-docs.ts`: rewrites only the "Image doors" section of
 * docs/conformance.md from test/conformance/image-matrix.ts (after the video section), leaving the
 * last suite run's outcomes as they are (`npm run docs:conformance` renders it with everything else).
 */
const target = new URL('../docs/conformance.md', import.meta.url);
const md = readFileSync(target, 'utf8');
const end = md.indexOf('## Deliberate refusals\n');
const found = md.indexOf('## Image doors\n');
const start = found >= 0 ? found : end;
writeFileSync(target, md.slice(0, start) + imageSection().join('\n') + '\n' + md.slice(end));
console.log(`wrote ${target.pathname}`);
