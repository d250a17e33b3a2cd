import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console merges every page's catalog into one message table (client/i18n.ts), keyed by
 * English text and context: when two catalogs translate the same key differently, whichever
 * loads last wins on every page. So one English text (in one context) gets one Chinese text;
 * a word that really means two things gets a Lingui context in the code.
 */
const zhDir = path.resolve(import.meta.dirname, 'zh');

interface Entry {
  context: string | undefined;
  id: string;
  translation: string;
}

/** The live entries of a .po file: msgctxt (optional), msgid and msgstr, each on one or more quoted lines. */
function parsePo(text: string): Entry[] {
  const entries: Entry[] = [];
  // Obsolete (#~) entries and comments are not compiled into the console.
  const lines = text.split('\n').filter((l) => !l.startsWith('#'));
  for (const block of lines.join('\n').split(/\n\s*\n/)) {
    const field = (name: string) => {
      const m = new RegExp(`^${name} ((?:".*"\\n?)+)`, 'm').exec(block + '\n');
      if (!m) return undefined;
      return m[1]
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l.trim()) as string)
        .join('');
    };
    const id = field('msgid');
    const translation = field('msgstr');
    if (!id || translation === undefined) continue;
    entries.push({ context: field('msgctxt'), id, translation });
  }
  return entries;
}

/** Each English text (with its context) that two catalogs translate differently, with who says what. */
function clashes(catalogs: Record<string, string>): string[] {
  const seen = new Map<string, Map<string, string[]>>();
  for (const [name, text] of Object.entries(catalogs))
    for (const e of parsePo(text)) {
      if (e.translation === '') continue; // untranslated: the merge keeps another catalog's text
      const key = e.context === undefined ? JSON.stringify(e.id) : `${JSON.stringify(e.id)} (context "${e.context}")`;
      const byText = seen.get(key) ?? new Map<string, string[]>();
      byText.set(e.translation, [...(byText.get(e.translation) ?? []), name]);
      seen.set(key, byText);
    }
  return [...seen]
    .filter(([, byText]) => byText.size > 1)
    .map(([key, byText]) => `${key}: ${[...byText].map(([zh, files]) => `"${zh}" in ${files.join(', ')}`).join(' / ')}`);
}

describe('Chinese catalogs: one English text, one translation', () => {
  it('no English text is translated two ways across the catalogs', () => {
    const files = readdirSync(zhDir).filter((f) => f.endsWith('.po'));
    expect(files.length).toBeGreaterThan(10);
    const catalogs = Object.fromEntries(files.map((f) => [f, readFileSync(path.join(zhDir, f), 'utf8')]));
    expect(clashes(catalogs)).toEqual([]);
  });

  it('the check-in button reads 已签到 after checking in, while the token dialog says 完成', () => {
    const find = (file: string, context: string | undefined) =>
      parsePo(readFileSync(path.join(zhDir, file), 'utf8')).find((e) => e.id === 'Done' && e.context === context)
        ?.translation;
    expect(find('me.po', 'check-in')).toBe('已签到');
    expect(find('tokens.po', undefined)).toBe('完成');
  });

  it('reports a clash, and tells contexts and obsolete entries apart', () => {
    const po = (body: string) => `msgid ""\nmsgstr ""\n"Language: zh\\n"\n\n${body}\n`;
    const found = clashes({
      'me.po': po('#: a.tsx:1\nmsgid "Used quota"\nmsgstr "历史消耗"\n\nmsgctxt "check-in"\nmsgid "Done"\nmsgstr "已签到"'),
      'tokens.po': po('msgid "Used quota"\nmsgstr "已用额度"\n\nmsgid "Done"\nmsgstr "完成"'),
      'wallet.po': po('#~ msgid "Done"\n#~ msgstr "好"\n\nmsgid "Used quota"\nmsgstr ""'),
    });
    expect(found).toEqual(['"Used quota": "历史消耗" in me.po / "已用额度" in tokens.po']);
  });
});
