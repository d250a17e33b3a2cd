import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverMessages, type ServerMessageCode } from '../../shared/server-messages.ts';

const localesDir = path.resolve(import.meta.dirname, '../locales');

/** context -> {msgid, msgstr} of a catalog whose entries are keyed by context (the message code). */
function readCatalog(lang: 'zh' | 'en'): Map<string, { id: string; text: string }> {
  const entries = new Map<string, { id: string; text: string }>();
  const join = (s: string) =>
    s
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l.trim()) as string)
      .join('');
  for (const block of readFileSync(path.join(localesDir, lang, 'server-messages.po'), 'utf8').split(/\n\s*\n/)) {
    const ctx = /^msgctxt (".*")$/m.exec(block);
    const id = /^msgid ((?:".*"\n?)+)/m.exec(block);
    const str = /^msgstr ((?:".*"\n?)+)/m.exec(block);
    if (ctx && id && str) entries.set(JSON.parse(ctx[1]) as string, { id: join(id[1]), text: join(str[1]) });
  }
  return entries;
}

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

// Every code the server can answer with (the registry; services can throw nothing else) has its
// words in both languages, so no refusal reaches the console untranslated.
describe('server-message catalogs', () => {
  const codes = Object.keys(serverMessages) as ServerMessageCode[];
  const zh = readCatalog('zh');
  const en = readCatalog('en');

  it('translate every server message code in English and Chinese', () => {
    expect(codes.filter((c) => !en.get(c)?.text)).toEqual([]);
    expect(codes.filter((c) => !zh.get(c)?.text)).toEqual([]);
  });

  it('say in Chinese exactly what the server says (the REST wording)', () => {
    expect(codes.filter((c) => zh.get(c)?.text !== serverMessages[c])).toEqual([]);
  });

  it('keep every parameter in the English wording', () => {
    // log.relay_error carries its own two wordings ({zh} stored, {en} shown in English): nothing to keep.
    const lost = codes.filter((c) => {
      if (c === 'log.relay_error') return false;
      const english = en.get(c)?.text ?? '';
      return placeholders(english).join() !== placeholders(serverMessages[c]).join();
    });
    expect(lost).toEqual([]);
  });

  // Issue 31: what the console shows of the server reads as written for people, in English too.
  it('say it without backticks, "(s)" plurals or error codes', () => {
    const unfit = [...en.entries()].filter(([, m]) =>
      /`|\w\(s\)|\b(?:FST_|ERR_|UND_ERR_)[A-Z_]+|\bE(?:CONN[A-Z]+|NOTFOUND|TIMEDOUT)\b/.test(m.text),
    );
    expect(unfit).toEqual([]);
  });

  it('hold no entry for a code the server no longer has', () => {
    expect([...en.keys()].filter((c) => !Object.hasOwn(serverMessages, c))).toEqual([]);
  });
});
