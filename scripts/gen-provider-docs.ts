import { writeFileSync } from 'node:fs';
import { renderProviderDocs } from './provider-docs.ts';

/** `npm run docs:providers`: rewrites docs/providers.md from the adapter registry. */
const target = new URL('../docs/providers.md', import.meta.url);
writeFileSync(target, renderProviderDocs());
console.log(`wrote ${target.pathname}`);
