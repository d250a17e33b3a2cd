import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, NumberInput, Pagination, Text } from '@mantine/core';
import { useState } from 'react';

interface InboxPagerProps {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}

/** Shown only when there is more than one page: a quick jumper, no size changer, "items a-b of n". */
export function InboxPager({ page, pageSize, total, onChange }: InboxPagerProps) {
  const { t } = useLingui();
  const [jump, setJump] = useState<string | number>('');
  if (total <= pageSize) return null;
  const pages = Math.ceil(total / pageSize);
  const start = (page - 1) * pageSize + 1;
  const end = Math.min(page * pageSize, total);
  const go = () => {
    const n = Number(jump);
    if (Number.isInteger(n) && n >= 1) onChange(Math.min(n, pages));
    setJump('');
  };
  return (
    <Group justify="space-between" gap="sm" data-testid="inbox-pager">
      <Text size="sm" c="dimmed">
        <Trans>
          Items {start}-{end} of {total}
        </Trans>
      </Text>
      <Group gap="sm">
        <Pagination total={pages} value={page} onChange={onChange} size="sm" siblings={1} />
        <Group gap={6} wrap="nowrap">
          <NumberInput
            size="xs"
            w={64}
            min={1}
            max={pages}
            hideControls
            value={jump}
            onChange={setJump}
            onKeyDown={(e) => e.key === 'Enter' && go()}
            aria-label={t`Go to page`}
            placeholder={String(page)}
          />
          <Button size="xs" variant="default" onClick={go}>
            <Trans>Go</Trans>
          </Button>
        </Group>
      </Group>
    </Group>
  );
}
