import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Card, Group, NumberInput, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { checkMappingRows, MAPPING_MESSAGES, type MappingRow } from '../../../../shared/schemas/model-mapping.ts';
import { useUnsavedChanges } from '../../../components/UnsavedChanges.tsx';
import { showError } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';
import { SectionFrame } from '../form/OptionsSection.tsx';

const toRows = (m: Record<string, { model: string; priorities: number }[]>): MappingRow[] =>
  Object.entries(m).map(([name, models]) => ({ name, models: models.map((x) => ({ ...x })) }));

/** Virtual model names, each with the real models it fans out to (higher priority first). */
export function ModelMappingManager() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const query = trpc.modelMapping.get.useQuery();
  const [rows, setRows] = useState<MappingRow[]>([]);
  // The rows have been filled from the server at least once (before that, nothing is "unsaved").
  const [ready, setReady] = useState(false);
  const save = trpc.modelMapping.update.useMutation({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t`Saved` });
      void utils.modelMapping.get.invalidate();
    },
    onError: showError,
  });
  const reload = trpc.modelMapping.reload.useMutation({
    onSuccess: (d) => {
      setRows(toRows(d.mapping));
      notifications.show({ color: 'teal', message: t`Reloaded` });
    },
    onError: showError,
  });

  useEffect(() => {
    if (query.data) {
      setRows(toRows(query.data.mapping));
      setReady(true);
    }
  }, [query.data]);

  const messages: Record<string, string> = {
    [MAPPING_MESSAGES.virtualRequired]: t`Please enter the virtual model name`,
    [MAPPING_MESSAGES.virtualDuplicate]: t`Virtual model name already exists`,
    [MAPPING_MESSAGES.realRequired]: t`Please enter the real model name`,
    [MAPPING_MESSAGES.realDuplicate]: t`Real model name duplicated`,
    [MAPPING_MESSAGES.atLeastOne]: t`At least one real model is required`,
    [MAPPING_MESSAGES.priority]: t`Priority must be an integer of at least 0`,
  };

  const update = (i: number, row: MappingRow) => setRows((r) => r.map((x, j) => (j === i ? row : x)));
  const submit = async (): Promise<boolean> => {
    const r = checkMappingRows(rows);
    if (!r.ok) {
      notifications.show({ color: 'red', message: messages[r.message] ?? r.message });
      return false;
    }
    try {
      await save.mutateAsync({ mapping: rows });
      return true;
    } catch {
      // onError above has shown why.
      return false;
    }
  };

  // Rows are staged until Save: leaving asks, and the page's bar names the virtual models changed.
  const savedRows = query.data ? toRows(query.data.mapping) : [];
  const unsaved = [...new Set([...savedRows, ...rows].map((r) => r.name))].filter((name) => {
    const a = savedRows.filter((r) => r.name === name);
    const b = rows.filter((r) => r.name === name);
    return JSON.stringify(a) !== JSON.stringify(b);
  });
  useUnsavedChanges({
    title: <Trans>Model mapping</Trans>,
    items: ready ? unsaved.map((n) => n || t`(unnamed)`) : [],
    save: submit,
    discard: () => setRows(savedRows),
  });

  return (
    <SectionFrame
      title={<Trans>Model mapping</Trans>}
      description={
        <Trans>A virtual model name is served by the first available real model, highest priority first.</Trans>
      }
      testId="section-model-mapping"
    >
      {query.isLoading ? (
        <Skeleton h={80} />
      ) : (
        <Stack gap="sm">
          {rows.length === 0 && (
            <Text c="dimmed" size="sm">
              <Trans>No virtual models yet.</Trans>
            </Text>
          )}
          {rows.map((row, i) => (
            <Card key={i} withBorder padding="sm" radius="md">
              <Stack gap="xs">
                <Group gap="xs" align="flex-end" wrap="nowrap">
                  <TextInput
                    style={{ flex: 1 }}
                    label={t`Virtual model name`}
                    value={row.name}
                    onChange={(e) => update(i, { ...row, name: e.currentTarget.value })}
                  />
                  <ActionIcon
                    color="red"
                    variant="subtle"
                    size="lg"
                    aria-label={t`Delete`}
                    onClick={() => setRows((r) => r.filter((_, j) => j !== i))}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Group>
                {row.models.length > 0 && (
                  <Group gap="xs" wrap="nowrap" pl={{ base: 0, sm: 'md' }} pr={34}>
                    <Text size="xs" c="dimmed" style={{ flex: 1 }}>
                      <Trans>Real model</Trans>
                    </Text>
                    <Text size="xs" c="dimmed" w={110}>
                      <Trans>Priority (higher first)</Trans>
                    </Text>
                  </Group>
                )}
                {row.models.map((m, k) => (
                  <Group key={k} gap="xs" wrap="nowrap" pl={{ base: 0, sm: 'md' }}>
                    <TextInput
                      style={{ flex: 1 }}
                      placeholder={t`Real model name`}
                      aria-label={t`Real model name`}
                      value={m.model}
                      onChange={(e) =>
                        update(i, {
                          ...row,
                          models: row.models.map((x, l) => (l === k ? { ...x, model: e.currentTarget.value } : x)),
                        })
                      }
                    />
                    <NumberInput
                      w={110}
                      aria-label={t`Priority`}
                      placeholder={t`Priority`}
                      min={0}
                      allowDecimal={false}
                      value={m.priorities}
                      onChange={(v) =>
                        update(i, {
                          ...row,
                          models: row.models.map((x, l) => (l === k ? { ...x, priorities: Number(v) } : x)),
                        })
                      }
                    />
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={t`Remove`}
                      onClick={() => update(i, { ...row, models: row.models.filter((_, l) => l !== k) })}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ))}
                <Group pl={{ base: 0, sm: 'md' }}>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    leftSection={<IconPlus size={14} />}
                    onClick={() => update(i, { ...row, models: [...row.models, { model: '', priorities: 0 }] })}
                  >
                    <Trans>Add real model</Trans>
                  </Button>
                </Group>
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
      <Group gap="xs">
        <Button onClick={() => void submit()} loading={save.isPending}>
          <Trans>Save</Trans>
        </Button>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() => setRows((r) => [...r, { name: '', models: [{ model: '', priorities: 0 }] }])}
        >
          <Trans>Add virtual model</Trans>
        </Button>
        <Button variant="default" loading={reload.isPending} onClick={() => reload.mutate()}>
          <Trans>Reload</Trans>
        </Button>
      </Group>
    </SectionFrame>
  );
}
