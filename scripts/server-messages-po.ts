/*
 * Fills the Chinese server-message catalog from the registry: each entry's context is a code of
 * shared/server-messages.ts (joining shared/server-messages/<area>.ts), whose text is the Chinese the
 * console shows. Run after adding a code to an area there and its English in
 * shared/server-messages-en/<area>.ts, then `npx lingui extract`:
 *   node --import tsx scripts/server-messages-po.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serverMessages } from '../shared/server-messages.ts';

const file = path.resolve(import.meta.dirname, '../client/locales/zh/server-messages.po');
const po = (s: string) => JSON.stringify(s);

const out = readFileSync(file, 'utf8')
  .split(/\n\n/)
  .map((block) => {
    const ctx = /^msgctxt "(.*)"$/m.exec(block)?.[1];
    if (!ctx || !Object.hasOwn(serverMessages, ctx)) return block;
    const zh = serverMessages[ctx as keyof typeof serverMessages];
    return block.replace(/^msgstr (?:".*"\n?)+/m, `msgstr ${po(zh)}`);
  })
  .join('\n\n');
writeFileSync(file, out.endsWith('\n') ? out : `${out}\n`);
