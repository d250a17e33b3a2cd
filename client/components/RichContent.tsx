import { Box, Typography } from '@mantine/core';
import { markdownToSafeHtml } from '../lib/markdown.ts';
import { contentKind, sanitizeHtml } from '../lib/sanitize.ts';

interface RichContentProps {
  content: string;
  /** Height of the iframe when the content is a URL. */
  frameHeight?: string;
  title?: string;
}

/** Operator content (notice, home, about, messages): URL in an iframe, else sanitised HTML or markdown. */
export function RichContent({ content, frameHeight = 'calc(100vh - 140px)', title }: RichContentProps) {
  const kind = contentKind(content);
  if (kind === 'empty') return null;
  if (kind === 'url')
    return (
      <Box
        component="iframe"
        src={content.trim()}
        title={title ?? content.trim()}
        style={{ width: '100%', height: frameHeight, border: 0 }}
      />
    );
  const html = kind === 'html' ? sanitizeHtml(content) : markdownToSafeHtml(content);
  return (
    <Typography>
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
