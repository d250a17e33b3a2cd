import DOMPurify from 'dompurify';

/** Operator HTML with scripts, handlers and javascript: links removed; links open in a new tab. */
export function sanitizeHtml(html: string): string {
  const clean = DOMPurify.sanitize(html, { ADD_ATTR: ['target'], FORBID_TAGS: ['style'] });
  return clean;
}

export type ContentKind = 'empty' | 'url' | 'html' | 'markdown';

/** How operator-provided page content is shown: a URL in an iframe, HTML, or markdown. */
export function contentKind(content: string | undefined | null): ContentKind {
  const text = (content ?? '').trim();
  if (!text) return 'empty';
  if (/^https?:\/\/\S+$/.test(text)) return 'url';
  if (/^<[a-zA-Z!]/.test(text)) return 'html';
  return 'markdown';
}
