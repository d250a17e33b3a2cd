import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group, Switch, Tooltip } from '@mantine/core';
import { IconColumns, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { usePageSize } from '../../components/usePageSize.ts';
import { usePanelRequest } from '../../components/usePanelRequest.ts';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import { BatchMenu } from './BatchMenu.tsx';
import { BatchTagDialog } from './BatchTagDialog.tsx';
import { ChannelTable } from './ChannelTable.tsx';
import { DemoChannelButton } from './DemoChannelButton.tsx';
import { allVisible, channelColumns, useColumnVisibility } from './column-prefs.ts';
import { ColumnSettingsModal } from '../../components/ColumnSettingsModal.tsx';
import { useChannelColumns } from './columns.tsx';
import { ChannelDrawer } from './drawer/ChannelDrawer.tsx';
import { channelListInput } from './first-query.ts';
import { type ChannelFilter, noFilter, SearchBar } from './SearchBar.tsx';
import { TagEditDrawer } from './TagEditDrawer.tsx';
import { TestModelDialog } from './TestModelDialog.tsx';
import { type ChannelRow, channelsOf, type Entry, toEntries } from './types.ts';
import { useChannelTest } from './useChannelTest.ts';
import { useListOptions } from './useListOptions.ts';

/** Channel management (spec admin-pricing-channels-tokens §2): search, table, tag mode, batch actions, drawers. */
export default function ChannelsPage() {
  const { t } = useLingui();
  const [pageSize, setPageSize] = usePageSize();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<ChannelFilter>(noFilter);
  const { idSort, setIdSort, tagMode, setTagMode } = useListOptions();
  const [selected, setSelected] = useState<Entry[]>([]);
  const utils = trpc.useUtils();
  // /channel/add and /channel/edit/:id land here with ?add=1 or ?edit=<id>.
  const requested = usePanelRequest({
    load: (id) => utils.channels.get.fetch({ id }),
    onEdit: (channel) => setDrawer({ opened: true, editing: channel }),
  });
  const [drawer, setDrawer] = useState<{ opened: boolean; editing?: ChannelRow }>({ opened: requested.add });
  const [editingTag, setEditingTag] = useState<string | null>(null);
  const [picking, setPicking] = useState<ChannelRow | null>(null);
  const [columnsOpen, setColumnsOpen] = useState(false);
  const [batchTagOpen, setBatchTagOpen] = useState(false);
  const [visible, setVisible] = useColumnVisibility();
  const list = trpc.channels.list.useQuery(channelListInput({ page, pageSize, idSort, tagMode, filter }), {
    placeholderData: (prev) => prev,
  });
  const rows = list.data?.items ?? [];
  const entries = toEntries(rows, tagMode);
  const tester = useChannelTest();
  const refresh = () => void utils.channels.list.invalidate();
  const patch = trpc.channels.update.useMutation({
    onSuccess: () => {
      showSuccess(t`Channel updated`);
      refresh();
    },
    onError: (e) => {
      showError(e);
      refresh();
    },
  });
  const patchTag = trpc.channels.editTag.useMutation({
    onSuccess: () => {
      showSuccess(t`Tag updated`);
      refresh();
    },
    onError: showError,
  });
  const columns = useChannelColumns(
    {
      onEdit: (c) => setDrawer({ opened: true, editing: c }),
      onTest: (id) => tester.run(id),
      onPickModel: setPicking,
      testingId: tester.pendingId,
      onEditTag: setEditingTag,
      onPatch: (id, p) => patch.mutate({ id, ...p }),
      onPatchTag: (tag, p) => patchTag.mutate({ tag, ...p }),
    },
    visible,
  );
  const selectedIds = [...new Set(selected.flatMap(channelsOf).map((c) => c.id))];
  const resetPaging = () => {
    setPage(1);
    setSelected([]);
  };

  return (
    <Page
      title={<Trans>Manage channels</Trans>}
      description={<Trans>Upstream providers with their keys, models, groups, priority and weight.</Trans>}
      actions={
        <>
          <DemoChannelButton onAdded={refresh} />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDrawer({ opened: true })}>
            {t`Add channel`}
          </Button>
        </>
      }
    >
      <SearchBar
        onSearch={(f) => {
          resetPaging();
          setFilter(f);
        }}
      />
      <Group justify="space-between" gap="xs">
        <Group gap="lg">
          <Switch
            label={t`Sort by ID`}
            checked={idSort}
            onChange={(e) => {
              setIdSort(e.currentTarget.checked);
              resetPaging();
            }}
          />
          <Switch
            label={t`Tag mode`}
            checked={tagMode}
            onChange={(e) => {
              setTagMode(e.currentTarget.checked);
              resetPaging();
            }}
          />
        </Group>
        <Group gap="xs">
          <BatchMenu
            selectedIds={selectedIds}
            onSetTag={() => setBatchTagOpen(true)}
            onCleared={() => setSelected([])}
          />
          <Tooltip label={t`Column settings`} withinPortal>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t`Column settings`}
              onClick={() => setColumnsOpen(true)}
            >
              <IconColumns size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t`Refresh`} withinPortal>
            <ActionIcon variant="default" size="lg" aria-label={t`Refresh`} onClick={refresh} loading={list.isFetching}>
              <IconRefresh size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <ChannelTable
        entries={entries}
        columns={columns}
        total={list.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        fetching={list.isFetching}
        selected={selected}
        onSelect={setSelected}
        onPageChange={(p) => {
          setPage(p);
          setSelected([]);
        }}
        onPageSizeChange={(n) => {
          setPageSize(n);
          resetPaging();
        }}
      />
      <ChannelDrawer opened={drawer.opened} editing={drawer.editing} onClose={() => setDrawer({ opened: false })} />
      <TagEditDrawer
        tag={editingTag}
        channels={rows.filter((c) => c.tag === editingTag)}
        onClose={() => setEditingTag(null)}
      />
      <TestModelDialog channel={picking} onClose={() => setPicking(null)} onTest={tester.run} />
      <ColumnSettingsModal
        opened={columnsOpen}
        onClose={() => setColumnsOpen(false)}
        columns={channelColumns}
        value={visible}
        defaults={allVisible}
        onSave={setVisible}
      />
      <BatchTagDialog
        opened={batchTagOpen}
        ids={selectedIds}
        onClose={() => setBatchTagOpen(false)}
        onDone={() => setSelected([])}
      />
    </Page>
  );
}
