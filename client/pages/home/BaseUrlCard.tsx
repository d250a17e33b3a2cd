import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Code, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { copyText } from '../../components/clipboard.tsx';
import { useStatus } from '../../lib/status-context.tsx';

/** The base URL clients should use: the configured server address, else this site. */
export function BaseUrlCard() {
  const { t } = useLingui();
  const status = useStatus();
  const origin = (status.server_address || window.location.origin).replace(/\/+$/, '');
  const baseUrl = `${origin}/v1`;
  return (
    <Paper withBorder radius="lg" px="md" py="sm" maw="100%" shadow="xs" data-testid="base-url">
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t`Base URL`}
        </Text>
        <Code fz="sm" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {baseUrl}
        </Code>
        <Tooltip label={t`Copy`}>
          <ActionIcon variant="subtle" aria-label={t`Copy`} onClick={() => void copyText(baseUrl)}>
            <IconCopy size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Paper>
  );
}
