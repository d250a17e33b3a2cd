import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Loader, Modal, Table, Text } from '@mantine/core';
import { errorMessage } from '../../lib/errors.ts';
import type { ReactNode } from 'react';
import { Money } from '../../components/Money.tsx';
import { renderNumber } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';

/** Admin popup on a log's user avatar: balance, usage and group (spec §3 user info popup). */
export function UserInfoModal({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const { t } = useLingui();
  const info = trpc.logs.userInfo.useQuery({ id: userId ?? 0 }, { enabled: userId !== null });
  const rows: [string, ReactNode][] = info.data
    ? [
        [t`Username`, info.data.username],
        [t`Balance`, <Money key="balance" quota={info.data.quota} balance />],
        [t`Used quota`, <Money key="used" quota={info.data.used_quota} />],
        [t`Requests`, renderNumber(info.data.request_count)],
        [t`Group`, info.data.group],
      ]
    : [];
  return (
    <Modal opened={userId !== null} onClose={onClose} title={t`User information`} size="sm">
      {info.isLoading && (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      )}
      {info.error && <Text c="red">{errorMessage(info.error)}</Text>}
      {info.data && (
        <Table>
          <Table.Tbody>
            {rows.map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Td c="dimmed" w={120}>
                  {k}
                </Table.Td>
                <Table.Td>{v}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {!info.data && !info.isLoading && !info.error && (
        <Text c="dimmed">
          <Trans>No data</Trans>
        </Text>
      )}
    </Modal>
  );
}
