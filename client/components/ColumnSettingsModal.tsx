import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Modal, SimpleGrid } from '@mantine/core';
import { useState } from 'react';
import { FormFooter } from './FormFooter.tsx';

interface Props<K extends string> {
  opened: boolean;
  onClose: () => void;
  /** The columns the viewer may choose from. */
  columns: readonly { key: K; label: MessageDescriptor }[];
  value: Record<K, boolean>;
  /** What "Reset" goes back to. */
  defaults: () => Record<K, boolean>;
  onSave: (v: Record<K, boolean>) => void;
}

/** The column settings dialog of the data tables; each page remembers the choice under its own key. */
export function ColumnSettingsModal<K extends string>({ opened, onClose, columns, value, defaults, onSave }: Props<K>) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState(value);
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
      <FormFooter
        mt="lg"
        left={
          <Button variant="subtle" onClick={() => setDraft(defaults())}>
            <Trans>Reset</Trans>
          </Button>
        }
        onCancel={onClose}
        label={<Trans>Confirm</Trans>}
        onConfirm={() => {
          onSave(draft);
          onClose();
        }}
      />
    </Modal>
  );
}
