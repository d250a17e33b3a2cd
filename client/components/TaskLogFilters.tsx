import '@mantine/dates/styles.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Collapse, Group, NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';

export interface TaskFilterValues {
  channel_id: number;
  task_id: string;
  start: string | null;
  end: string | null;
}

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

/**
 * Filters of the drawing and music task logs; they differ in where they start. No end by default:
 * "until now", so a later Query still sees new tasks (issue 31; an end an hour ahead read as a mistake).
 */
export function defaultTaskFilters(start: dayjs.Dayjs): TaskFilterValues {
  return { channel_id: 0, task_id: '', start: start.format(FORMAT), end: null };
}

export const toUnix = (v: string | null) => (v ? dayjs(v).unix() : undefined);
/** Drawing times are unix milliseconds (Midjourney-proxy convention); the API accepts them as such. */
export const toMs = (v: string | null) => (v ? dayjs(v).valueOf() : undefined);

interface Props {
  admin: boolean;
  initial: TaskFilterValues;
  fetching: boolean;
  onSubmit: (v: TaskFilterValues) => void;
}

export function TaskLogFilters({ admin, initial, fetching, onSubmit }: Props) {
  const { t } = useLingui();
  const [v, setV] = useState(initial);
  const set = <K extends keyof TaskFilterValues>(k: K, value: TaskFilterValues[K]) =>
    setV((o) => ({ ...o, [k]: value }));
  // On phones the fields would push the table off screen: they fold away until asked for.
  const phone = useMediaQuery('(max-width: 600px)') ?? false;
  const [shown, folding] = useDisclosure(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(v);
      }}
    >
      {phone && (
        <Button
          variant="subtle"
          size="compact-sm"
          mb={shown ? 'sm' : 0}
          leftSection={<IconAdjustmentsHorizontal size={16} />}
          onClick={folding.toggle}
        >
          {shown ? t`Hide filters` : t`Show filters`}
        </Button>
      )}
      <Collapse expanded={!phone || shown}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: admin ? 4 : 3 }} spacing="sm">
          {admin && (
            <NumberInput
              label={t`Channel ID`}
              min={0}
              value={v.channel_id || ''}
              onChange={(n) => set('channel_id', Number(n) || 0)}
            />
          )}
          <TextInput label={t`Task ID`} value={v.task_id} onChange={(e) => set('task_id', e.currentTarget.value)} />
          <DateTimePicker
            label={t`Start time`}
            withSeconds
            valueFormat={FORMAT}
            value={v.start}
            onChange={(d) => set('start', d ? dayjs(d).format(FORMAT) : null)}
            clearable
          />
          <DateTimePicker
            label={t`End time`}
            placeholder={t`Now`}
            withSeconds
            valueFormat={FORMAT}
            value={v.end}
            onChange={(d) => set('end', d ? dayjs(d).format(FORMAT) : null)}
            clearable
          />
        </SimpleGrid>
      </Collapse>
      <Group justify="flex-end" mt="sm">
        <Button type="submit" leftSection={<IconSearch size={16} />} loading={fetching}>
          <Trans>Query</Trans>
        </Button>
      </Group>
    </form>
  );
}
