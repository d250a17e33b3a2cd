import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const localesDir = path.resolve(import.meta.dirname, 'locales');

/** msgid -> msgstr pairs of a .po file (single-line and multi-line strings). */
function readPo(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  const text = readFileSync(file, 'utf8');
  const blocks = text.split(/\n\s*\n/);
  for (const block of blocks) {
    const id = /msgid ((?:".*"\n?)+)/.exec(block);
    const str = /msgstr ((?:".*"\n?)+)/.exec(block);
    if (!id || !str) continue;
    const join = (s: string) =>
      s
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l.trim()) as string)
        .join('');
    const key = join(id[1]);
    if (key !== '') entries.set(key, join(str[1]));
  }
  return entries;
}

describe('console translations', () => {
  const catalogs = readdirSync(path.join(localesDir, 'en')).filter((f) => f.endsWith('.po'));

  it('has the same catalogs for Chinese and English', () => {
    expect(
      readdirSync(path.join(localesDir, 'zh'))
        .filter((f) => f.endsWith('.po'))
        .sort(),
    ).toEqual(catalogs.sort());
  });

  it.each(catalogs)('%s: every message is translated in both languages', (file) => {
    const en = readPo(path.join(localesDir, 'en', file));
    const zh = readPo(path.join(localesDir, 'zh', file));
    expect([...en.keys()].sort()).toEqual([...zh.keys()].sort());
    const missingZh = [...zh].filter(([, v]) => v.trim() === '').map(([k]) => k);
    const missingEn = [...en].filter(([, v]) => v.trim() === '').map(([k]) => k);
    expect(missingZh, 'untranslated in zh').toEqual([]);
    expect(missingEn, 'untranslated in en').toEqual([]);
  });
});
