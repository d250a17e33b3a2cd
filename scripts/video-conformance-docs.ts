import { readFileSync, writeFileSync } from 'node:fs';
import { videoSection } from '../test/conformance/video-matrix.ts';

/*
 * `node --import tsx scripts/video-conformance-docs.ts`: rewrites only the "Video doors" section of
 * docs/conformance.md from test/conformance/video-matrix.ts, leaving the last suite run's outcomes
 * as they are (`npm run docs:conformance` renders the same section along with everything else).
 */
const target = new URL('../docs/conformance.md', import.meta.url);
const md = readFileSync(target, 'utf8');
const end = md.indexOf('## Deliberate refusals\n');
const found = md.indexOf('## Video doors\n');
const start = found >= 0 ? found : end;
writeFileSync(target, md.slice(0, start) + videoSection().join('\n') + '\n' + md.slice(end));
console.log(`wrote ${target.pathname}`);
