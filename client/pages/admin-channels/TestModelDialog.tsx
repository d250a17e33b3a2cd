import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Modal, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { FormFooter } from '../../components/FormFooter.tsx';
import classes from './channels.module.css';
import { type ChannelRow, splitCsv } from './types.ts';

interface Props {
  channel: ChannelRow | null;
  onClose: () => void;
  onTest: (id: number, model: string) => void;
}

/** Picks one of the channel's models to test with. */
export function TestModelDialog({ channel, onClose, onTest }: Props) {
  const { t } = useLingui();
  const [filter, setFilter] = useState('');
  const models = splitCsv(channel?.models).filter((m) => m.toLowerCase().includes(filter.trim().toLowerCase()));
  return (
    <Modal
      opened={channel !== null}
      onClose={onClose}
      title={channel ? t`Test ${channel.name} with a model` : ''}
      size="lg"
      onExitTransitionEnd={() => setFilter('')}
    >
      <Stack gap="sm">
        <TextInput
          placeholder={t`Filter models`}
          leftSection={<IconSearch size={16} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          data-autofocus
        />
        <ScrollArea.Autosize mah={360}>
          <Stack gap={4}>
            {models.map((m) => (
              <UnstyledButton
                key={m}
                onClick={() => {
                  if (channel) onTest(channel.id, m);
                  onClose();
                }}
                p={6}
                className={classes.modelItem}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {m}
                  </Text>
                  {channel?.test_model === m && (
                    <Badge size="xs" variant="light">
                      <Trans>Default test model</Trans>
                    </Badge>
                  )}
                </Group>
              </UnstyledButton>
            ))}
            {models.length === 0 && (
              <Text size="sm" c="dimmed" ta="center" py="md">
                <Trans>No models</Trans>
              </Text>
            )}
          </Stack>
        </ScrollArea.Autosize>
        <FormFooter onCancel={onClose} label={null} />
      </Stack>
    </Modal>
  );
}
