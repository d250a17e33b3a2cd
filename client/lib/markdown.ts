import { marked } from 'marked';
import { sanitizeHtml } from './sanitize.ts';

/*
 * Apart from sanitize.ts so that the shell (the footer sanitizes the operator's HTML) does not load and set up
 * the markdown parser on every cold start: only the pages that show markdown import this (issue 45).
 */
export function markdownToSafeHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false, gfm: true, breaks: true }));
}
