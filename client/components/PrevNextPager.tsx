import { Trans } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

interface Props {
  /** 0-based page shown. */
  page: number;
  /** Rows on the page shown and the page size: without a total, a full page is the only hint another may follow. */
  rows: number;
  pageSize: number;
  onChange: (page: number) => void;
  testId?: string;
}

/** Previous / next paging for the APIs that page without a total (api-contract §0.4 style D). */
export function PrevNextPager({ page, rows, pageSize, onChange, testId }: Props) {
  return (
    <Group justify="flex-end" gap="xs">
      <Button
        variant="default"
        size="xs"
        leftSection={<IconChevronLeft size={14} />}
        disabled={page === 0}
        onClick={() => onChange(page - 1)}
      >
        <Trans>Previous</Trans>
      </Button>
      <Text size="sm" c="dimmed" data-testid={testId}>
        <Trans>Page {page + 1}</Trans>
      </Text>
      <Button
        variant="default"
        size="xs"
        rightSection={<IconChevronRight size={14} />}
        disabled={rows < pageSize}
        onClick={() => onChange(page + 1)}
      >
        <Trans>Next</Trans>
      </Button>
    </Group>
  );
}
