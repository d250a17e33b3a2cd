import { describe, expect, it } from 'vitest';
import { plainPreview, relativeTime } from './preview.ts';

describe('inbox preview text', () => {
  it('strips markdown symbols and turns newlines into spaces', () => {
    const md = '# Notice\n\n**Maintenance** at _22:00_.\n\n- item one\n- [docs](https://x.y)\n> quoted `code`';
    expect(plainPreview(md, 'markdown')).toBe('Notice Maintenance at 22:00. item one docs quoted code');
  });

  it('strips html tags and decodes common entities', () => {
    expect(plainPreview('<p>Hello&nbsp;<b>world</b></p><p>a &amp; b</p><script>x()</script>', 'html')).toBe(
      'Hello world a & b',
    );
  });

  it('keeps up to 100 characters and cuts longer text to 97 plus "..."', () => {
    const exact = 'a'.repeat(100);
    expect(plainPreview(exact, 'markdown')).toBe(exact);
    const long = 'b'.repeat(101);
    expect(plainPreview(long, 'markdown')).toBe(`${'b'.repeat(97)}...`);
    expect(plainPreview(long, 'markdown')).toHaveLength(100);
  });

  it('says how long ago within a week, nothing after', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    expect(relativeTime(now / 1000 - 120, 'en', now)).toBe('2 minutes ago');
    expect(relativeTime(now / 1000 - 3 * 3600, 'zh', now)).toBe('3小时前');
    expect(relativeTime(now / 1000 - 10, 'en', now)).toBe('now');
    expect(relativeTime(now / 1000 - 8 * 86_400, 'en', now)).toBeNull();
  });
});
