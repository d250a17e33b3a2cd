import { t } from '@lingui/core/macro';
import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { copyText } from '../../components/clipboard.tsx';

/** After a create: every generated key, one per line, with a copy-all button. */
export function showGeneratedKeys(keys: string[]) {
  const all = keys.join('\n');
  modals.open({
    title: t`Redemption codes created`,
    size: 'lg',
    children: (
      <Stack gap="sm">
        <Text size="sm">{t`${keys.length} code(s) created. Copy them now and hand them out.`}</Text>
        <Code block data-testid="generated-keys" style={{ maxHeight: 320, overflow: 'auto' }}>
          {all}
        </Code>
        <Group justify="flex-end">
          <Button onClick={() => void copyText(all, t`Copied ${keys.length} code(s)`)}>{t`Copy all`}</Button>
        </Group>
      </Stack>
    ),
  });
}
