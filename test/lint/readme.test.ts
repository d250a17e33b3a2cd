import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Issue 31: a newcomer reads the README in two minutes and finds which mode to pick and what the tests
 * need; the long sections live in docs/. Both READMEs say the same things, and no link in them or in
 * docs/ points at a file or heading that moved away.
 */

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const readmes = ['README.md', 'README.zh-CN.md'];
const docs = [
  ...readmes,
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(path.join(root, 'docs/zh-CN')).map((f) => `docs/zh-CN/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (file: string) =>
  new Set([...read(file).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!.replace(/`/g, ''))));

/** Relative links, without those inside code blocks. */
function linksOf(file: string): string[] {
  const text = read(file).replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
}

describe('the READMEs', () => {
  it.each(readmes)('%s fits on two screens', (file) => {
    expect(read(file).split('\n').length).toBeLessThanOrEqual(80);
  });

  it.each(readmes)('%s says which mode needs prices and what the tests need', (file) => {
    const text = read(file);
    for (const words of ['TEST_REDIS_URL', 'TEST_SQL_DSN', '.ci/run', 'fonts-noto-cjk', 'libjemalloc2', 'chromium'])
      expect(text).toContain(words);
    expect(text).toMatch(file === 'README.md' ? /selling/ : /出售/);
    expect(text).toMatch(file === 'README.md' ? /Self-use mode/ : /自用模式/);
  });

  it('are in step: the same sections and the same links to docs/', () => {
    const [en, zh] = readmes.map(read);
    const sections = (t: string) => t.match(/^## /gm)?.length;
    expect(sections(zh!)).toBe(sections(en!));
    const docLinks = (file: string) =>
      linksOf(file).filter((l) => l.startsWith('docs/') && !l.startsWith('docs/zh-CN'));
    expect(docLinks('README.zh-CN.md')).toEqual(docLinks('README.md'));
  });
});

describe('links between the docs', () => {
  it.each(docs)('every relative link in %s reaches a file and heading that exist', (file) => {
    const broken: string[] = [];
    for (const link of linksOf(file)) {
      const [target, anchor] = link.split('#');
      const targetFile = target ? path.normalize(path.join(path.dirname(file), target)) : file;
      if (!existsSync(path.join(root, targetFile))) broken.push(link);
      else if (anchor && targetFile.endsWith('.md') && !anchorsOf(targetFile).has(anchor)) broken.push(link);
    }
    expect(broken).toEqual([]);
  });
});
