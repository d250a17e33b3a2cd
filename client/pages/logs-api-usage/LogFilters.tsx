import '@mantine/dates/styles.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Collapse, Group, NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconRefresh, IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { logTypes } from './log-types.ts';

export interface LogFilterValues {
  token_name: string;
  model_name: string;
  group: string;
  username: string;
  channel: number;
  type: number;
  /** Local date-time text as the picker keeps it ("YYYY-MM-DD HH:mm:ss"). */
  start: string | null;
  end: string | null;
}

/**
 * The quick ranges: from that far back to now. (Spec §2.5 ends them an hour after now, new-api's
 * way of letting a later Query see new rows; issue 31 has them end now, and a Query with a quick
 * range still selected recomputes it, so new rows still show.)
 */
export const rangePresets = [
  { value: '3600', hours: 1 },
  { value: '86400', hours: 24 },
  { value: '604800', hours: 24 * 7 },
  { value: '2592000', hours: 24 * 30 },
] as const;
const DEFAULT_PRESET = '86400';

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

export function rangeFromPreset(seconds: string): Pick<LogFilterValues, 'start' | 'end'> {
  return {
    start: dayjs().subtract(Number(seconds), 'second').format(FORMAT),
    end: dayjs().format(FORMAT),
  };
}

export function defaultFilters(): LogFilterValues {
  return {
    token_name: '',
    model_name: '',
    group: '',
    username: '',
    channel: 0,
    type: 0,
    ...rangeFromPreset(DEFAULT_PRESET),
  };
}

export const toUnix = (v: string | null) => (v ? dayjs(v).unix() : 0);

interface Props {
  admin: boolean;
  initial: LogFilterValues;
  onSubmit: (values: LogFilterValues) => void;
  fetching: boolean;
}

export function LogFilters({ admin, initial, onSubmit, fetching }: Props) {
  const { t, i18n } = useLingui();
  const [v, setV] = useState(initial);
  const [preset, setPreset] = useState<string | null>(DEFAULT_PRESET);
  // On phones the ten fields would push the table off screen: they fold away until asked for.
  const phone = useMediaQuery('(max-width: 600px)') ?? false;
  const [shown, filters] = useDisclosure(false);
  const set = <K extends keyof LogFilterValues>(key: K, value: LogFilterValues[K]) =>
    setV((o) => ({ ...o, [key]: value }));

  const presetLabel: Record<string, string> = {
    '3600': t`Last hour`,
    '86400': t`Last 24 hours`,
    '604800': t`Last 7 days`,
    '2592000': t`Last 30 days`,
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        // A quick range still selected means "until now": now is the moment of this Query.
        const range = preset ? rangeFromPreset(preset) : {};
        setV((o) => ({ ...o, ...range }));
        onSubmit({
          ...v,
          ...range,
          token_name: v.token_name.trim(),
          model_name: v.model_name.trim(),
          username: v.username.trim(),
        });
      }}
    >
      {phone && (
        <Button
          variant="subtle"
          size="compact-sm"
          mb={shown ? 'sm' : 0}
          leftSection={<IconAdjustmentsHorizontal size={16} />}
          onClick={filters.toggle}
        >
          {shown ? t`Hide filters` : t`Show filters`}
        </Button>
      )}
      <Collapse expanded={!phone || shown}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
          <TextInput
            label={t`Token name`}
            value={v.token_name}
            onChange={(e) => set('token_name', e.currentTarget.value)}
          />
          <TextInput
            label={t`Model name`}
            value={v.model_name}
            onChange={(e) => set('model_name', e.currentTarget.value)}
          />
          <TextInput label={t`Group`} value={v.group} onChange={(e) => set('group', e.currentTarget.value)} />
          <Select
            label={t`Log type`}
            value={String(v.type)}
            onChange={(x) => set('type', Number(x ?? 0))}
            allowDeselect={false}
            data={[
              { value: '0', label: t`All` },
              ...logTypes.map((m) => ({ value: String(m.value), label: i18n._(m.label) })),
            ]}
          />
          <Select
            label={t`Quick range`}
            value={preset}
            placeholder={t`Custom`}
            data={rangePresets.map((p) => ({ value: p.value, label: presetLabel[p.value] }))}
            onChange={(x) => {
              setPreset(x);
              if (x) setV((o) => ({ ...o, ...rangeFromPreset(x) }));
            }}
          />
          <DateTimePicker
            label={t`Start time`}
            value={v.start}
            valueFormat={FORMAT}
            withSeconds
            clearable
            onChange={(x) => {
              setPreset(null);
              set('start', x);
            }}
          />
          <DateTimePicker
            label={t`End time`}
            value={v.end}
            valueFormat={FORMAT}
            withSeconds
            clearable
            onChange={(x) => {
              setPreset(null);
              set('end', x);
            }}
          />
          {admin && (
            <TextInput
              label={t`Username`}
              value={v.username}
              onChange={(e) => set('username', e.currentTarget.value)}
            />
          )}
          {admin && (
            <NumberInput
              label={t`Channel ID`}
              min={0}
              allowDecimal={false}
              value={v.channel || ''}
              onChange={(x) => set('channel', typeof x === 'number' ? x : 0)}
            />
          )}
        </SimpleGrid>
      </Collapse>
      <Group mt="sm" gap="xs">
        <Button type="submit" leftSection={<IconSearch size={16} />} loading={fetching}>
          <Trans>Query</Trans>
        </Button>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={() => {
            const fresh = defaultFilters();
            setPreset(DEFAULT_PRESET);
            setV(fresh);
            onSubmit(fresh);
          }}
        >
          <Trans>Reset</Trans>
        </Button>
      </Group>
    </form>
  );
}
