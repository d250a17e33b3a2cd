import { Badge } from '@mantine/core';

/** The spec's format tag: html blue, markdown green. */
export function FormatBadge({ format }: { format: string }) {
  return (
    <Badge color={format === 'html' ? 'blue' : 'green'} variant="light" tt="none">
      {format === 'html' ? 'HTML' : 'Markdown'}
    </Badge>
  );
}
