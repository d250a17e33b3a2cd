import { plural, t } from '@lingui/core/macro';
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
        <Text size="sm">
          {plural(keys.length, {
            one: '# code created. Copy it now and hand it out.',
            other: '# codes created. Copy them now and hand them out.',
          })}
        </Text>
        <Code block data-testid="generated-keys" style={{ maxHeight: 320, overflow: 'auto' }}>
          {all}
        </Code>
        <Group justify="flex-end">
          <Button
            onClick={() => void copyText(all, plural(keys.length, { one: 'Copied # code', other: 'Copied # codes' }))}
          >{t`Copy all`}</Button>
        </Group>
      </Stack>
    ),
  });
}
