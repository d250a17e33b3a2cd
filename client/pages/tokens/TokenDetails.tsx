import { t } from '@lingui/core/macro';
import { Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import { Money } from '../../components/Money.tsx';
import { formatTimestamp } from '../../lib/format.ts';
import { TokenStatusBadge } from './StatusBadge.tsx';
import { fullKey, type TokenRow } from './types.ts';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** The "view" action: everything about one token, key included. */
export function showTokenDetails(token: TokenRow) {
  const limits = token.model_limits_enabled ? token.model_limits.split(',').filter(Boolean).join(', ') : t`None`;
  modals.open({
    title: token.name || t`Token`,
    size: 'lg',
    children: (
      <Stack gap="md">
        <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {fullKey(token.key)}
        </Code>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Item label={t`Status`}>
            <TokenStatusBadge token={token} />
          </Item>
          <Item label={t`Group`}>{token.group || t`User group`}</Item>
          <Item label={t`Remaining quota`}>
            {token.unlimited_quota ? t`Unlimited` : <Money quota={token.remain_quota} balance />}
          </Item>
          <Item label={t`Used quota`}>
            <Money quota={token.used_quota} />
          </Item>
          <Item label={t`Created`}>{formatTimestamp(token.created_time)}</Item>
          <Item label={t`Expires`}>{token.expired_time === -1 ? t`Never` : formatTimestamp(token.expired_time)}</Item>
          <Item label={t`Model limits`}>{limits}</Item>
          <Item label={t`IP allow list`}>{token.allow_ips.split('\n').filter(Boolean).join(', ') || t`Any`}</Item>
          <Item label={t`Rate limit`}>
            {token.rate_limit_enabled
              ? t`Requests: ${token.rate_limit_count} · successful: ${token.rate_limit_success} · per ${token.rate_limit_period} s`
              : t`Off`}
          </Item>
          <Item label={t`Last used`}>{formatTimestamp(token.accessed_time)}</Item>
        </SimpleGrid>
        <Group justify="flex-end">
          <Text size="xs" c="dimmed">
            ID {token.id}
          </Text>
        </Group>
      </Stack>
    ),
  });
}
