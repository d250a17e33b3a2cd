import '@mantine/dates/styles.css';
import 'dayjs/locale/zh-cn';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, TextInput } from '@mantine/core';
import { DatePickerInput, DatesProvider, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar, IconPlus, IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';

export interface MessageFilters {
  keyword?: string;
  startDate?: string;
  endDate?: string;
}

/**
 * The picked days as the admin's local start and end of day (ISO), so "created on the
 * 22nd" means the 22nd where the admin is. Sent only when both ends are picked.
 */
function toFilters(keyword: string, range: DatesRangeValue<string>): MessageFilters {
  const [start, end] = range;
  const dates =
    start && end
      ? { startDate: dayjs(start).startOf('day').toISOString(), endDate: dayjs(end).endOf('day').toISOString() }
      : {};
  return { keyword: keyword.trim() || undefined, ...dates };
}

interface Props {
  onSearch: (filters: MessageFilters) => void;
  onCreate: () => void;
  searching: boolean;
}

export function SearchForm({ onSearch, onCreate, searching }: Props) {
  const { t, i18n } = useLingui();
  const [keyword, setKeyword] = useState('');
  const [range, setRange] = useState<DatesRangeValue<string>>([null, null]);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(toFilters(keyword, range));
      }}
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t`Keyword`}
          placeholder={t`Search title and content`}
          leftSection={<IconSearch size={14} />}
          value={keyword}
          onChange={(e) => setKeyword(e.currentTarget.value)}
          w={{ base: '100%', xs: 240 }}
        />
        <DatesProvider settings={{ locale: i18n.locale === 'zh' ? 'zh-cn' : 'en', firstDayOfWeek: 1 }}>
          <DatePickerInput
            type="range"
            label={t`Created date`}
            placeholder={t`Start date – end date`}
            leftSection={<IconCalendar size={14} />}
            value={range}
            onChange={setRange}
            valueFormat="YYYY-MM-DD"
            clearable
            allowSingleDateInRange
            w={{ base: '100%', xs: 280 }}
          />
        </DatesProvider>
        <Group gap="sm">
          <Button type="submit" variant="light" leftSection={<IconSearch size={14} />} loading={searching}>
            <Trans>Query</Trans>
          </Button>
          <Button leftSection={<IconPlus size={14} />} onClick={onCreate} data-testid="create-message">
            <Trans>Create message</Trans>
          </Button>
        </Group>
      </Group>
    </form>
  );
}
