import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { readString, writeString } from '../../../lib/storage.ts';
import type { OptionsForm } from '../form/useOptionsForm.ts';
import { fetchPreset, mergeRatios, type Preset, PRESET_BASE_KEY, PRESETS } from './presets.ts';

/** "Fill from preset ratios": merges a public preset into the editor (saved only with Save). */
export function PresetFill({ form }: { form: OptionsForm }) {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  const [base, setBase] = useState(() => readString(PRESET_BASE_KEY) ?? '');
  const [preset, setPreset] = useState<Preset>('flexible');
  const [overwrite, setOverwrite] = useState(false);
  const [loading, setLoading] = useState(false);

  const fill = async () => {
    if (!/^https?:\/\//i.test(base.trim())) {
      notifications.show({ color: 'red', message: t`Please enter the address of the preset files` });
      return;
    }
    setLoading(true);
    try {
      const p = await fetchPreset(base.trim(), preset);
      writeString(PRESET_BASE_KEY, base.trim());
      form.setMany({
        ModelRatio: mergeRatios(form.values.ModelRatio ?? '', p.modelRatio, overwrite),
        CompletionRatio: mergeRatios(form.values.CompletionRatio ?? '', p.completionRatio, overwrite),
      });
      notifications.show({ color: 'teal', message: t`Preset ratios filled in; review them and save` });
      setOpened(false);
    } catch {
      notifications.show({ color: 'red', message: t`Failed to get preset ratios, please retry` });
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        <Trans>Fill from preset ratios</Trans>
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t`Fill from preset ratios`}>
        <Stack>
          <TextInput
            label={t`Preset files address`}
            description={t`Folder holding <preset>/prompt.json and <preset>/completion.json`}
            placeholder="https://assets.example.com/ratios"
            value={base}
            onChange={(e) => setBase(e.currentTarget.value)}
          />
          <Select
            label={t`Preset`}
            value={preset}
            allowDeselect={false}
            onChange={(v) => v && setPreset(v as Preset)}
            data={PRESETS.map((p) => ({ value: p, label: p }))}
          />
          <Checkbox
            label={t`Overwrite ratios that are already set`}
            checked={overwrite}
            onChange={(e) => setOverwrite(e.currentTarget.checked)}
          />
          <Text size="xs" c="dimmed">
            <Trans>Nothing is saved until you press Save.</Trans>
          </Text>
          <Group justify="flex-end">
            <Button loading={loading} onClick={() => void fill()}>
              <Trans>Fill in</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
