import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { type ComboboxItem, type ComboboxParsedItem, Group, type OptionsFilter, Select, Text } from '@mantine/core';
import { useMemo } from 'react';
import {
  ChannelType,
  type ChannelTypeGroup,
  type ChannelTypeInfo,
  groupedChannelTypes,
} from '../../../../shared/channel-types.ts';

/*
 * The channel form's type picker: types by name, grouped (popular first), searchable by name, code
 * name, vendor host or Chinese name. The type's number is secondary detail, in the option's tooltip.
 */

const GROUP_LABELS: Record<ChannelTypeGroup, MessageDescriptor> = {
  popular: msg`Popular`,
  vendors: msg`More vendors`,
  proxies: msg`OpenAI-compatible proxies`,
  china: msg`Chinese clouds`,
  selfHosted: msg`Self-hosted`,
  tasks: msg`Tasks (Midjourney, Suno)`,
  retired: msg`Retired APIs`,
};

/** What people type to find a vendor whose name they know in Chinese (search only, never shown). */
const T = ChannelType;
const ALIASES: Partial<Record<number, string>> = {
  [T.Ali]: '阿里 通义 千问 qwen dashscope',
  [T.Baidu]: '百度 文心 千帆 ernie',
  [T.BaiduV2]: '百度 文心 千帆 ernie qianfan',
  [T.Zhipu]: '智谱 glm',
  [T.ZhipuV4]: '智谱 glm',
  [T.Moonshot]: '月之暗面 kimi',
  [T.VolcEngine]: '火山 豆包 doubao ark',
  [T.SiliconFlow]: '硅基流动',
  [T.Tencent]: '腾讯 混元',
  [T.XunfeiSpark]: '讯飞 星火',
  [T.LingYiWanWu]: '零一万物 yi',
  [T.Coze]: '扣子',
  [T.DeepSeek]: '深度求索',
  [T.Anthropic]: 'claude',
  [T.Gemini]: 'google',
  [T.VertexAI]: 'google gcp',
  [T.Bedrock]: 'amazon aws',
  [T.XAI]: 'grok',
};

const host = (c: ChannelTypeInfo) => (c.baseUrl ? new URL(c.baseUrl).host : '');

const searchText = new Map(
  groupedChannelTypes().flatMap(({ types }) =>
    types.map((c) => [
      String(c.id),
      [c.name, c.key, host(c), ALIASES[c.id] ?? '', String(c.id)].join(' ').toLowerCase(),
    ]),
  ),
);

const byValue = new Map(groupedChannelTypes().flatMap(({ types }) => types.map((c) => [String(c.id), c])));

/** Keeps the groups, with the options whose name, code name, host, alias or number contain every word searched. */
const filter: OptionsFilter = ({ options, search }) => {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const hit = (o: ComboboxItem) => words.every((w) => searchText.get(o.value)?.includes(w));
  return options.flatMap((o): ComboboxParsedItem[] => {
    if (!('group' in o)) return hit(o) ? [o] : [];
    const items = o.items.filter(hit);
    return items.length ? [{ ...o, items }] : [];
  });
};

export function TypeSelect({ value, onChange }: { value: number; onChange: (v: string | null) => void }) {
  const { t, i18n } = useLingui();
  const data = useMemo(
    () =>
      groupedChannelTypes().map(({ group, types }) => ({
        group: i18n._(GROUP_LABELS[group]),
        items: types.map((c) => ({ value: String(c.id), label: c.name })),
      })),
    [i18n.locale],
  );
  return (
    <Select
      label={t`Type`}
      data={data}
      value={String(value)}
      onChange={onChange}
      searchable
      filter={filter}
      nothingFoundMessage={t`No type matches`}
      allowDeselect={false}
      maxDropdownHeight={360}
      data-testid="channel-type"
      renderOption={({ option }) => {
        const c = byValue.get(option.value);
        const id = c?.id ?? option.value;
        return (
          <Group justify="space-between" wrap="nowrap" gap="xs" w="100%" title={t`Channel type number ${id}`}>
            <Text size="sm">{option.label}</Text>
            {c && host(c) && (
              <Text size="xs" c="dimmed" truncate aria-hidden>
                {host(c)}
              </Text>
            )}
          </Group>
        );
      }}
    />
  );
}
