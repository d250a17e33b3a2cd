import { Trans, useLingui } from '@lingui/react/macro';
import { Checkbox, Group, NumberInput, Select, Slider, Stack, Text, Textarea } from '@mantine/core';
import type { ChatSettings } from './useChat.ts';

interface Props {
  value: ChatSettings;
  onChange: (v: ChatSettings) => void;
  groups: { value: string; label: string }[];
  models: string[];
}

/** Group, model, temperature (0.1-1, step 0.1; 0 = unset), max tokens (0 = unset), system prompt. */
export function SettingsPanel({ value, onChange, groups, models }: Props) {
  const { t } = useLingui();
  const set = <K extends keyof ChatSettings>(k: K, v: ChatSettings[K]) => onChange({ ...value, [k]: v });
  return (
    <Stack gap="md">
      <Select
        label={t`Group`}
        data={groups}
        value={value.group || null}
        onChange={(v) => set('group', v ?? '')}
        allowDeselect={false}
        searchable
        nothingFoundMessage={t`No groups`}
      />
      <Select
        label={t`Model`}
        data={models}
        value={value.model || null}
        onChange={(v) => set('model', v ?? '')}
        allowDeselect={false}
        searchable
        nothingFoundMessage={t`No models`}
      />
      <div>
        <Group justify="space-between" mb={6}>
          <Checkbox
            label={t`Temperature`}
            checked={value.temperature > 0}
            onChange={(e) => set('temperature', e.currentTarget.checked ? 0.7 : 0)}
          />
          <Text size="sm" c="dimmed">
            {value.temperature > 0 ? value.temperature.toFixed(1) : t`Default`}
          </Text>
        </Group>
        <Slider
          min={0.1}
          max={1}
          step={0.1}
          disabled={value.temperature === 0}
          value={value.temperature || 0.7}
          onChange={(v) => set('temperature', Math.round(v * 10) / 10)}
          label={(v) => v.toFixed(1)}
          aria-label={t`Temperature`}
        />
      </div>
      <NumberInput
        label={t`Max tokens`}
        description={<Trans>0 leaves it to the model</Trans>}
        min={0}
        allowDecimal={false}
        value={value.maxTokens}
        onChange={(v) => set('maxTokens', typeof v === 'number' && v > 0 ? v : 0)}
      />
      <Textarea
        label={t`System prompt`}
        autosize
        minRows={3}
        maxRows={10}
        value={value.systemPrompt}
        onChange={(e) => set('systemPrompt', e.currentTarget.value)}
      />
    </Stack>
  );
}
