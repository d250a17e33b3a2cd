import { t } from '@lingui/core/macro';
import { ActionIcon, Button, Code, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCopy } from '@tabler/icons-react';
import { copyText } from '../../components/clipboard.tsx';

/** After a create: the new keys, each with a copy button (they can also be copied from the list later). */
export function showCreatedKeys(keys: string[]) {
  modals.open({
    title: t`Token created`,
    size: 'lg',
    children: (
      <Stack gap="sm" data-testid="created-keys">
        <Text size="sm">{t`Copy the key now, or later from the token list.`}</Text>
        <ScrollArea.Autosize mah={320}>
          <Stack gap={6}>
            {keys.map((key) => (
              <Group key={key} gap="xs" wrap="nowrap">
                <Code data-testid="created-key" style={{ wordBreak: 'break-all', flex: 1 }}>
                  {key}
                </Code>
                <ActionIcon variant="light" aria-label={t`Copy key`} onClick={() => void copyText(key)}>
                  <IconCopy size={16} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Group justify="flex-end">
          {keys.length > 1 && (
            <Button variant="light" onClick={() => void copyText(keys.join('\n'))}>
              {t`Copy all`}
            </Button>
          )}
          <Button onClick={() => modals.closeAll()}>{t`Done`}</Button>
        </Group>
      </Stack>
    ),
  });
}
