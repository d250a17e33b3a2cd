import { PREVIEW_LENGTH } from '../../../shared/schemas/messages.ts';

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

/** Markdown syntax reduced to its words: images and links keep their text, markers go. */
function stripMarkdown(s: string): string {
  return s
    .replace(/```[^\n]*\n?/g, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*([-*_]\s*){3,}$/gm, '')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/(^|\W)[*_](\S[^*_]*)[*_](?=\W|$)/g, '$1$2')
    .replace(/\|/g, ' ');
}

/**
 * The inbox row preview (spec §2.12): markup and markdown symbols stripped, newlines
 * turned into spaces, and over 100 characters cut to 97 plus '...'. Regex-based on
 * purpose: the text is only ever shown as text, so nothing here needs to be safe HTML.
 */
export function plainPreview(content: string, format: string): string {
  let s = content.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ');
  s = s.replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, '\n').replace(/<[^>]*>/g, '');
  if (format !== 'html') s = stripMarkdown(s);
  s = s.replace(/&(#39|[a-z]+);/gi, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m);
  s = s.replace(/\s+/g, ' ').trim();
  return s.length > PREVIEW_LENGTH ? `${s.slice(0, PREVIEW_LENGTH - 3)}...` : s;
}

/** "3 minutes ago" within a week; older messages show their date (shared with the channel list). */
export { relativeTime } from '../../lib/relative-time.ts';
