import { Text, Typography } from '@mantine/core';
import { markdownToSafeHtml } from '../../lib/markdown.ts';
import { sanitizeHtml } from '../../lib/sanitize.ts';

/**
 * A message body. The server stores admin HTML as written, so every HTML path here
 * (html messages, and markdown, which may embed HTML) goes through DOMPurify.
 */
export function MessageContent({ content, format }: { content: string; format: string }) {
  if (format !== 'html' && format !== 'markdown')
    return (
      <Text style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="message-content">
        {content}
      </Text>
    );
  const html = format === 'html' ? sanitizeHtml(content) : markdownToSafeHtml(content);
  return (
    <Typography>
      <div
        data-testid="message-content"
        style={{ wordBreak: 'break-word' }}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Typography>
  );
}
