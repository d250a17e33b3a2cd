import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Card,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconCopy, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { copyText } from '../../components/clipboard.tsx';
import { ListTable, type TableColumn } from '../../components/DataTable.tsx';
import { MarketIcon } from '../../components/MarketIcon.tsx';
import { Page } from '../../components/Page.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { currencySymbol, quotaDisplay } from '../../lib/format.ts';
import { serverTextInLanguage } from '../../lib/server-messages.ts';
import { useStoredUser } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';
import { allTags, matchesMarket, NO_VENDOR, tagsOf } from './market.ts';
import { availableIn, callable, displayPrice, priceDecimals, priceText, ratioColor } from './price.ts';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';

type Item = inferRouterOutputs<AppRouter>['pricing']['list']['data'][number];

/** /pricing: public model price list with a group selector (spec §2.8, §9). */
export default function PricingPage() {
  const { t } = useLingui();
  const user = useStoredUser();
  const pricing = trpc.pricing.list.useQuery(undefined, { staleTime: 60_000 });
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [showUnavailable, setShowUnavailable] = useState(false);
  const [showRatio, setShowRatio] = useState(false);
  const [vendorFilter, setVendorFilter] = useState<string | null>(null);
  const [tagFilter, setTagFilter] = useState<string | null>(null);

  const groups = Object.keys(pricing.data?.usable_group ?? {});
  const ratios = pricing.data?.group_ratio ?? {};
  const fallbackGroup =
    user?.group && groups.includes(user.group) ? user.group : groups.includes('default') ? 'default' : groups[0];
  const group = picked && groups.includes(picked) ? picked : (fallbackGroup ?? 'default');
  const groupRatio = ratios[group] ?? 1;
  const display = quotaDisplay();

  const vendors = useMemo(() => new Map((pricing.data?.vendors ?? []).map((v) => [v.id, v])), [pricing.data]);
  const records = useMemo(() => {
    const filter = { search, vendor: vendorFilter, tag: tagFilter };
    return (pricing.data?.data ?? []).filter(
      (p) => matchesMarket(p, filter, vendors) && (showUnavailable || availableIn(p, group)),
    );
  }, [pricing.data, vendors, search, vendorFilter, tagFilter, showUnavailable, group]);
  // The price column's one precision, over the rows shown.
  const decimals = useMemo(
    () =>
      priceDecimals(
        records.map((p) => displayPrice(p, groupRatio)),
        display,
      ),
    [records, groupRatio, display],
  );
  const tags = useMemo(() => allTags(pricing.data?.data ?? []), [pricing.data]);

  const columns: TableColumn<Item>[] = [
    {
      accessor: 'model_name',
      title: t`Model`,
      phone: 'title',
      render: (p) => (
        <Stack gap={4}>
          <UnstyledButton onClick={() => void copyText(p.model_name)} aria-label={t`Copy model name`}>
            <Group gap={6} wrap="nowrap">
              <MarketIcon icon={p.icon ?? vendors.get(p.vendor_id ?? 0)?.icon} fallback={p.model_name} size={22} />
              <Text size="sm" fw={500}>
                {p.model_name}
              </Text>
              <IconCopy size={14} opacity={0.6} />
            </Group>
          </UnstyledButton>
          {p.description && (
            <Text size="xs" c="dimmed" lineClamp={2} data-testid="model-description">
              {p.description}
            </Text>
          )}
          {p.tags && (
            <Group gap={4}>
              {tagsOf(p.tags).map((tag) => (
                <Badge key={tag} size="xs" variant="outline" tt="none">
                  {tag}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
      ),
    },
    {
      accessor: 'vendor_id',
      title: t`Vendor`,
      phone: 'field',
      render: (p) => {
        const v = vendors.get(p.vendor_id ?? 0);
        return v ? (
          <Group gap={6} wrap="nowrap" data-testid="model-vendor">
            <MarketIcon icon={v.icon} fallback={v.name} size={20} />
            <Text size="sm">{v.name}</Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            -
          </Text>
        );
      },
    },
    {
      accessor: 'quota_type',
      title: t`Billing`,
      phone: 'badge',
      render: (p) => {
        if (p.price_source === 'unset')
          return <Badge miw="max-content" color="gray" variant="light">{t`No price set`}</Badge>;
        if (p.price_source === 'self_use')
          return <Badge miw="max-content" color="green" variant="light">{t`Free`}</Badge>;
        if (p.quota_type === 0) return <Badge miw="max-content" color="violet" variant="light">{t`Per token`}</Badge>;
        if (p.unit === 'second' || p.unit === 'video')
          return (
            <Badge miw="max-content" color="orange" variant="light" data-testid="video-unit">
              {p.unit === 'video' ? t`Per video` : t`Per second`}
            </Badge>
          );
        return p.unit === 'image' ? (
          <Badge miw="max-content" color="cyan" variant="light">{t`Per image`}</Badge>
        ) : (
          <Badge miw="max-content" color="teal" variant="light">{t`Per call`}</Badge>
        );
      },
    },
    {
      accessor: 'price',
      title: t`Price`,
      phone: 'wide',
      render: (p) => {
        const d = displayPrice(p, groupRatio);
        if (d.kind === 'unavailable')
          return (
            <Text size="sm" c="red.7" data-testid="price-unavailable">
              {t`No price set — not available`}
            </Text>
          );
        if (d.kind === 'free_for_you') return <Text size="sm">{t`No price set — free for you`}</Text>;
        if (d.kind === 'no_price_needed') return <Text size="sm">{t`No price needed`}</Text>;
        const note = d.fallback && (
          <Text size="xs" c="dimmed">
            {t`Fallback price`}
          </Text>
        );
        if (d.kind === 'call' || d.kind === 'image' || d.kind === 'second' || d.kind === 'video') {
          const amount = priceText(d.price, display, decimals);
          const perUnit = {
            call: t`${amount} / call`,
            image: t`${amount} / image`,
            second: t`${amount} / second`,
            video: t`${amount} / video`,
          }[d.kind];
          return (
            <Stack gap={0}>
              <Text size="sm" data-testid="model-price">
                {perUnit}
              </Text>
              {note}
            </Stack>
          );
        }
        const [prompt, completion] = [
          priceText(d.prompt, display, decimals),
          priceText(d.completion, display, decimals),
        ];
        const audioIn = d.audio && priceText(d.audio.prompt, display, decimals);
        const audioOut = d.audio && priceText(d.audio.completion, display, decimals);
        return (
          <Stack gap={0}>
            <Text size="sm">{t`Prompt ${prompt} / 1M tokens`}</Text>
            <Text size="sm">{t`Completion ${completion} / 1M tokens`}</Text>
            {audioIn && <Text size="sm">{t`Audio input ${audioIn} / 1M audio tokens`}</Text>}
            {audioOut && <Text size="sm">{t`Audio output ${audioOut} / 1M audio tokens`}</Text>}
            {note}
          </Stack>
        );
      },
    },
    {
      accessor: 'ratio',
      title: t`Ratios`,
      phone: 'wide',
      hidden: !showRatio,
      render: (p) =>
        p.price_source === 'unset' || p.price_source === 'self_use' ? (
          <Text size="sm" c="dimmed">
            -
          </Text>
        ) : p.quota_type === 1 ? (
          <Text size="sm" c="dimmed">{t`Group ratio ${groupRatio}`}</Text>
        ) : (
          <Stack gap={0}>
            <Text size="sm">{t`Model ratio ${p.model_ratio}`}</Text>
            <Text size="sm">{t`Completion ratio ${p.completion_ratio}`}</Text>
            <Text size="sm">{t`Group ratio ${groupRatio}`}</Text>
          </Stack>
        ),
    },
    {
      accessor: 'enable_groups',
      title: t({ message: 'Groups', context: 'groups that may use the model' }),
      render: (p) => (
        <Group gap={4}>
          {(p.enable_groups ?? []).map((g) => (
            <Badge
              miw="max-content"
              key={g}
              variant={g === group ? 'filled' : 'light'}
              color={ratioColor(ratios[g] ?? 1)}
              tt="none"
            >
              {g}
            </Badge>
          ))}
        </Group>
      ),
    },
  ];

  return (
    <Page title={<Trans>Model pricing</Trans>}>
      {pricing.error && <Alert color="red">{errorMessage(pricing.error)}</Alert>}
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Group gap="xs" align="center">
            <Text size="sm" fw={500}>
              <Trans>Group</Trans>
            </Text>
            {groups.length > 0 && (
              <SegmentedControl
                size="xs"
                value={group}
                onChange={setPicked}
                data={groups.map((g) => ({
                  value: g,
                  label: (
                    <Tooltip label={serverTextInLanguage(pricing.data?.usable_group[g] ?? g)}>
                      <span style={{ whiteSpace: 'nowrap' }}>
                        {g}{' '}
                        <Text span size="xs" fw={700} c={ratioColor(ratios[g] ?? 1)}>
                          ×{ratios[g] ?? 1}
                        </Text>
                      </span>
                    </Tooltip>
                  ),
                }))}
              />
            )}
          </Group>
          <Group gap="md" align="center">
            <TextInput
              placeholder={t`Search models`}
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: '100%', sm: 280 }}
            />
            {vendors.size > 0 && (
              <Select
                w={{ base: '100%', sm: 180 }}
                placeholder={t`All vendors`}
                aria-label={t`Vendor`}
                data={[
                  ...[...vendors.values()].map((v) => ({ value: String(v.id), label: v.name })),
                  { value: NO_VENDOR, label: t`No vendor` },
                ]}
                value={vendorFilter}
                onChange={setVendorFilter}
                clearable
              />
            )}
            {tags.length > 0 && (
              <Select
                w={{ base: '100%', sm: 160 }}
                placeholder={t`All tags`}
                aria-label={t`Tag`}
                data={tags}
                value={tagFilter}
                onChange={setTagFilter}
                searchable
                clearable
              />
            )}
            <Switch
              label={t`Show unavailable models`}
              checked={showUnavailable}
              onChange={(e) => setShowUnavailable(e.currentTarget.checked)}
            />
            <Switch
              label={t`Show ratios`}
              checked={showRatio}
              onChange={(e) => setShowRatio(e.currentTarget.checked)}
            />
          </Group>
          <Text size="xs" c="dimmed">
            {display.displayInCurrency && currencySymbol(display) !== '$' ? (
              <Trans>
                Prices are in {currencySymbol(display)} at {display.rate} per US dollar, for the selected group (group
                ratio ×{groupRatio}). Click a model name to copy it.
              </Trans>
            ) : display.displayInCurrency ? (
              <Trans>
                Prices are in USD for the selected group (group ratio ×{groupRatio}). Click a model name to copy it.
              </Trans>
            ) : (
              <Trans>
                Prices are in quota units for the selected group (group ratio ×{groupRatio}). Click a model name to copy
                it.
              </Trans>
            )}
          </Text>
        </Stack>
      </Card>
      <ListTable<Item>
        records={records}
        columns={columns}
        idAccessor="model_name"
        fetching={pricing.isLoading}
        noRecordsText={t`No models`}
        rowStyle={(p) => (availableIn(p, group) && callable(p) ? undefined : { opacity: 0.55 })}
      />
    </Page>
  );
}
