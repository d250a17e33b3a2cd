import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { copyText } from '../../components/clipboard.tsx';
import { PagedTable } from '../../components/DataTable.tsx';
import { Page } from '../../components/Page.tsx';
import { usePageSize } from '../../components/usePageSize.ts';
import { trpc } from '../../trpc.ts';
import { TokenBanners } from './Banners.tsx';
import { useTokenColumns } from './columns.tsx';
import { SearchBar, type TokenFilter } from './SearchBar.tsx';
import { tokenListInput } from './first-query.ts';
import { TokenDrawer } from './TokenDrawer.tsx';
import { fullKey, isInactive, type TokenRow } from './types.ts';

/** API tokens (console-screens §2.2): the post-login landing page. */
export default function TokensPage() {
  const { t } = useLingui();
  const [pageSize, setPageSize] = usePageSize();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<TokenFilter>({ keyword: '', key: '' });
  const [selected, setSelected] = useState<TokenRow[]>([]);
  const [drawer, setDrawer] = useState<{ opened: boolean; editing?: TokenRow }>({ opened: false });
  const utils = trpc.useUtils();
  const input = tokenListInput(page, pageSize, filter);
  const list = trpc.tokens.list.useQuery(input, { placeholderData: (prev) => prev });

  /** The row takes what the server answered (enable/disable). */
  const replaceRow = (row: TokenRow) =>
    utils.tokens.list.setData(input, (old) =>
      old ? { ...old, items: old.items.map((r) => (r.id === row.id ? row : r)) } : old,
    );
  const columns = useTokenColumns((row) => setDrawer({ opened: true, editing: row }), replaceRow);

  const copySelected = () => {
    if (selected.length === 0) {
      notifications.show({ color: 'yellow', message: t`Please select at least one token` });
      return;
    }
    void copyText(selected.map((r) => `${r.name}    ${fullKey(r.key)}`).join('\n'));
  };

  return (
    <Page
      title={<Trans>API tokens</Trans>}
      description={<Trans>Keys for calling the gateway's API with your quota.</Trans>}
      actions={
        <>
          <Button variant="default" leftSection={<IconCopy size={16} />} onClick={copySelected}>
            {selected.length ? t`Copy selected (${selected.length})` : t`Copy selected`}
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDrawer({ opened: true })}>
            {t`Add token`}
          </Button>
        </>
      }
    >
      <TokenBanners />
      <SearchBar
        onSearch={(f) => {
          setPage(1);
          setSelected([]);
          setFilter(f);
        }}
      />
      <PagedTable<TokenRow>
        records={list.data?.items ?? []}
        columns={columns}
        total={list.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={(p) => {
          setPage(p);
          setSelected([]);
        }}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        fetching={list.isFetching}
        selectedRecords={selected}
        onSelectedRecordsChange={setSelected}
        rowStyle={(r) => (isInactive(r) ? { opacity: 0.55 } : undefined)}
        pinLastColumn
      />
      <TokenDrawer opened={drawer.opened} editing={drawer.editing} onClose={() => setDrawer({ opened: false })} />
    </Page>
  );
}
