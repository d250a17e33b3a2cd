import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Group, Modal, SimpleGrid } from '@mantine/core';
import { useState } from 'react';
import { availableColumns, type ColumnVisibility, defaultVisibility } from './columns.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  admin: boolean;
  value: ColumnVisibility;
  onSave: (v: ColumnVisibility) => void;
}

/** Column settings dialog; the choice is kept under logs-table-columns. */
export function ColumnSettings({ opened, onClose, admin, value, onSave }: Props) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState(value);
  const columns = availableColumns(admin);
  const allOn = columns.every((c) => draft[c.key]);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t`Column settings`}
      onEnterTransitionEnd={() => setDraft(value)}
      size="md"
    >
      <Checkbox
        mb="sm"
        label={t`Select all`}
        checked={allOn}
        indeterminate={!allOn && columns.some((c) => draft[c.key])}
        onChange={() => setDraft((d) => ({ ...d, ...Object.fromEntries(columns.map((c) => [c.key, !allOn])) }))}
      />
      <SimpleGrid cols={2} spacing="xs">
        {columns.map((c) => (
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
        <Button variant="subtle" onClick={() => setDraft(defaultVisibility(admin))}>
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
