import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { PagedTable } from '../../components/DataTable.tsx';
import { usePageSize } from '../../components/usePageSize.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';

interface Row {
  id: number;
  trade_no: string;
  amount: number;
  money: number;
  payment_method: string;
  status: string;
  create_time: number;
  complete_time: number;
}

/** The user's own online top-up orders, newest first. */
export function TopUpHistory() {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize();
  const list = trpc.wallet.topUps.useQuery({ page, pageSize }, { placeholderData: (prev) => prev });
  const statusBadge = (s: string) =>
    s === 'success' ? (
      <Badge color="green" variant="light" tt="none">{t`Paid`}</Badge>
    ) : s === 'pending' ? (
      <Badge color="yellow" variant="light" tt="none">{t`Pending`}</Badge>
    ) : (
      <Badge color="red" variant="light" tt="none">{t`Failed`}</Badge>
    );
  return (
    <Stack gap="xs">
      <Title order={4}>
        <Trans>Top-up history</Trans>
      </Title>
      <PagedTable<Row>
        records={list.data?.items ?? []}
        fetching={list.isFetching}
        total={list.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        columns={[
          {
            accessor: 'trade_no',
            title: t`Order number`,
            ellipsis: true,
            phone: 'title',
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
          },
          // No fixed widths: "Amount paid" was cut to "Amount…" at 1366 px (issue 31).
          { accessor: 'amount', title: t`Amount`, noWrap: true, phone: 'field' },
          {
            accessor: 'money',
            title: t`Amount paid`,
            noWrap: true,
            phone: 'field',
            render: (r) => `¥${r.money.toFixed(2)}`,
          },
          {
            accessor: 'payment_method',
            title: t`Method`,
            width: 110,
            phone: 'field',
            render: (r) =>
              r.payment_method === 'alipay'
                ? t`Alipay`
                : r.payment_method === 'wxpay'
                  ? t`WeChat Pay`
                  : r.payment_method,
          },
          { accessor: 'status', title: t`Status`, width: 100, phone: 'badge', render: (r) => statusBadge(r.status) },
          {
            accessor: 'create_time',
            title: t`Created`,
            width: 170,
            phone: 'field',
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
            render: (r) => formatTimestamp(r.create_time),
          },
        ]}
      />
    </Stack>
  );
}
