import { useLingui } from '@lingui/react/macro';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { FormFooter } from '../../../components/FormFooter.tsx';

/**
 * The advanced model picker (admin spec, channel page): the upstream's model list with a
 * box each, those already on the channel ticked, new ones marked, searchable, all or none
 * at once. Applying replaces the channel's models with the ticked ones (issue 28: the type's
 * suggested names the upstream never serves must not stay behind); "add" is the explicit
 * choice that keeps the models the upstream did not list.
 */
export function ModelPickerModal(props: {
  opened: boolean;
  upstream: string[];
  current: string[];
  onClose: () => void;
  onApply: (models: string[]) => void;
}) {
  const { t } = useLingui();
  const { opened, upstream, current } = props;
  const [search, setSearch] = useState('');
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [mode, setMode] = useState<'replace' | 'add'>('replace');
  const narrow = useMediaQuery('(max-width: 600px)');
  const have = useMemo(() => new Set(current), [current]);

  // Each opening starts from the channel's models as they are.
  useEffect(() => {
    if (!opened) return;
    setTicked(new Set(upstream.filter((m) => have.has(m))));
    setSearch('');
    setMode('replace');
  }, [opened, upstream, have]);

  const shown = upstream.filter((m) => m.toLowerCase().includes(search.trim().toLowerCase()));
  const toggle = (m: string, on: boolean) =>
    setTicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(m);
      else next.delete(m);
      return next;
    });
  const setShown = (on: boolean) =>
    setTicked((prev) => {
      const next = new Set(prev);
      for (const m of shown)
        if (on) next.add(m);
        else next.delete(m);
      return next;
    });
  const listed = new Set(upstream);
  // Models on the channel the upstream did not list: dropped when replacing, kept when adding.
  const unlisted = current.filter((m) => !listed.has(m));
  const apply = () => {
    const chosen = upstream.filter((m) => ticked.has(m));
    props.onApply(mode === 'replace' ? chosen : [...unlisted, ...chosen]);
    props.onClose();
  };
  const added = upstream.filter((m) => ticked.has(m) && !have.has(m)).length;
  const dropped = unlisted.length;

  return (
    <Modal opened={opened} onClose={props.onClose} title={t`Choose models`} size="lg" centered>
      <Stack gap="sm">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t`Search models`}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-autofocus
        />
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <Button size="compact-xs" variant="light" onClick={() => setShown(true)}>
              {t`Select all`}
            </Button>
            <Button size="compact-xs" variant="subtle" onClick={() => setShown(false)}>
              {t`Select none`}
            </Button>
          </Group>
          <Text size="xs" c="dimmed" data-testid="picker-count">
            {t`${ticked.size} of ${upstream.length} selected, ${added} new`}
          </Text>
        </Group>
        <ScrollArea.Autosize mah={360} type="auto">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={6}>
            {shown.map((m) => (
              <Checkbox
                key={m}
                checked={ticked.has(m)}
                onChange={(e) => toggle(m, e.currentTarget.checked)}
                label={
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {m}
                    </Text>
                    {!have.has(m) && (
                      <Badge size="xs" variant="light" color="teal" style={{ flexShrink: 0 }}>
                        {t`New`}
                      </Badge>
                    )}
                  </Group>
                }
              />
            ))}
          </SimpleGrid>
          {shown.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" py="md">
              {t`No model matches`}
            </Text>
          )}
        </ScrollArea.Autosize>
        <Stack gap={4}>
          <SegmentedControl
            size="xs"
            fullWidth
            orientation={narrow ? 'vertical' : 'horizontal'}
            value={mode}
            onChange={(v) => setMode(v === 'add' ? 'add' : 'replace')}
            data={[
              { value: 'replace', label: t`Replace the channel's models` },
              { value: 'add', label: t`Add to the channel's models` },
            ]}
            data-testid="picker-mode"
          />
          <Text
            size="xs"
            c={mode === 'replace' && unlisted.length > 0 ? 'orange' : 'dimmed'}
            data-testid="picker-effect"
          >
            {mode === 'replace'
              ? unlisted.length > 0
                ? t`The channel will serve only the ticked models; ${dropped} it has now that the upstream does not list will be removed`
                : t`The channel will serve only the ticked models`
              : t`The ticked models are added; the ${dropped} the upstream does not list stay`}
          </Text>
        </Stack>
        <FormFooter onCancel={props.onClose} label={t`Apply`} onConfirm={apply} />
      </Stack>
    </Modal>
  );
}
