import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Group, Modal, SimpleGrid } from '@mantine/core';
import { useState } from 'react';
import { allVisible, channelColumns, type ColumnVisibility } from './column-prefs.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  value: ColumnVisibility;
  onSave: (v: ColumnVisibility) => void;
}

/** Which columns the channel table shows; remembered in local storage. */
export function ColumnSettings({ opened, onClose, value, onSave }: Props) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState(value);
  const allOn = channelColumns.every((c) => draft[c.key]);
  return (
    <Modal opened={opened} onClose={onClose} title={t`Column settings`} onEnterTransitionEnd={() => setDraft(value)}>
      <Checkbox
        mb="sm"
        label={t`Select all`}
        checked={allOn}
        indeterminate={!allOn && channelColumns.some((c) => draft[c.key])}
        onChange={() => setDraft(Object.fromEntries(channelColumns.map((c) => [c.key, !allOn])) as ColumnVisibility)}
      />
      <SimpleGrid cols={2} spacing="xs">
        {channelColumns.map((c) => (
          <Checkbox
            key={c.key}
            label={i18n._(c.label)}
            checked={draft[c.key]}
            onChange={(e) => {
              const checked = e.currentTarget.checked;
              setDraft((d) => ({ ...d, [c.key]: checked }));
            }}
          />
        ))}
      </SimpleGrid>
      <Group justify="space-between" mt="lg">
        <Button variant="subtle" onClick={() => setDraft(allVisible())}>
          <Trans>Reset</Trans>
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            onClick={() => {
              onSave(draft);
              onClose();
            }}
          >
            <Trans>Confirm</Trans>
          </Button>
        </Group>
      </Group>
    </Modal>
  );
}
