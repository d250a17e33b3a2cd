import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Group, Paper, Skeleton, Text } from '@mantine/core';
import { useState } from 'react';
import { copyText } from '../../components/clipboard.tsx';
import { trpc } from '../../trpc.ts';

const COLLAPSED_COUNT = 10;

/** The models the user may call; more than 10 collapse behind "show more". Click a model to copy it. */
export function ModelsCard() {
  const { t } = useLingui();
  const models = trpc.users.models.useQuery();
  const [expanded, setExpanded] = useState(false);
  const list = models.data ?? [];
  const shown = expanded ? list : list.slice(0, COLLAPSED_COUNT);
  return (
    <Paper withBorder radius="lg" p="lg">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t`Available models`}</Text>
        {list.length > 0 && (
          <Text size="xs" c="dimmed">
            {plural(list.length, { one: '# model, click to copy', other: '# models, click to copy' })}
          </Text>
        )}
      </Group>
      {models.isLoading ? (
        <Skeleton h={60} />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t`No models are available to your group yet.`}
        </Text>
      ) : (
        <Group gap={6} data-testid="models">
          {shown.map((m) => (
            <Badge
              key={m}
              variant="light"
              color="gray"
              tt="none"
              style={{ cursor: 'pointer' }}
              onClick={() => void copyText(m)}
            >
              {m}
            </Badge>
          ))}
          {list.length > COLLAPSED_COUNT && (
            <Anchor size="xs" component="button" onClick={() => setExpanded((e) => !e)}>
              {expanded ? t`Show less` : t`Show more (${list.length - COLLAPSED_COUNT})`}
            </Anchor>
          )}
        </Group>
      )}
    </Paper>
  );
}
