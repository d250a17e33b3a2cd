import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  FileInput,
  Flex,
  Group,
  Image,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { IconDownload, IconPhoto, IconPhotoEdit, IconSparkles } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Money } from '../../components/Money.tsx';
import { serverTextInLanguage } from '../../lib/server-messages.ts';
import { downloadName, type ImageAsk } from './image-job.ts';
import { type ImageRun, useImageJob } from './useImageJob.ts';

/** Sizes OpenAI's image models take; other upstreams map them to their aspect ratios (or refuse, saying why). */
const SIZES = ['1024x1024', '1536x1024', '1024x1536', '1792x1024', '1024x1792', '512x512', '256x256'];
/** OpenAI's limit on `n`. */
const MAX_N = 10;
const ACCEPT = 'image/png,image/jpeg,image/webp';

interface Props {
  groups: { value: string; label: string }[];
  defaultGroup: string;
  models: string[];
  loading: boolean;
}

/** The playground's image tab (issue 44): model, prompt, size, n, an input picture for an edit -> the pictures. */
export function ImagePanel({ groups, defaultGroup, models, loading }: Props) {
  const { t } = useLingui();
  const job = useImageJob();
  const [ask, setAsk] = useState<ImageAsk>({
    group: '',
    model: '',
    prompt: '',
    size: '',
    n: 1,
    image: null,
    mask: null,
  });
  const set = <K extends keyof ImageAsk>(k: K, v: ImageAsk[K]) => setAsk((a) => ({ ...a, [k]: v }));

  useEffect(() => {
    setAsk((a) => ({ ...a, group: a.group || defaultGroup, model: a.model || (models[0] ?? '') }));
  }, [defaultGroup, models.join(',')]);

  const canSubmit = !job.busy && ask.model !== '' && ask.prompt.trim() !== '';
  const edit = ask.image !== null;

  return (
    <Flex gap="md" direction={{ base: 'column', sm: 'row' }} align={{ base: 'stretch', sm: 'flex-start' }}>
      <Card withBorder radius="md" w={{ base: '100%', sm: 340 }} style={{ flexShrink: 0 }}>
        <Stack gap="md">
          <Select
            label={t`Group`}
            data={groups}
            value={ask.group || null}
            onChange={(v) => set('group', v ?? '')}
            allowDeselect={false}
            searchable
            nothingFoundMessage={t`No groups`}
          />
          <Select
            label={t`Image model`}
            data={models}
            value={ask.model || null}
            onChange={(v) => set('model', v ?? '')}
            allowDeselect={false}
            searchable
            nothingFoundMessage={t`No models`}
          />
          <Textarea
            label={t`Prompt`}
            placeholder={edit ? t`Describe the change to make to the picture` : t`Describe the picture to draw`}
            autosize
            minRows={3}
            maxRows={8}
            value={ask.prompt}
            onChange={(e) => set('prompt', e.currentTarget.value)}
          />
          <Group grow align="flex-start">
            <Select
              label={t`Size`}
              placeholder={t`Model default`}
              data={SIZES}
              value={ask.size || null}
              onChange={(v) => set('size', v ?? '')}
              clearable
            />
            <NumberInput
              label={t`Number of images`}
              min={1}
              max={MAX_N}
              allowDecimal={false}
              clampBehavior="strict"
              value={ask.n}
              onChange={(v) => set('n', typeof v === 'number' && v >= 1 ? Math.min(v, MAX_N) : 1)}
            />
          </Group>
          <FileInput
            label={t`Input image`}
            description={t`Upload a picture to edit it; leave empty to draw a new one.`}
            placeholder={t`No file chosen`}
            accept={ACCEPT}
            clearable
            leftSection={<IconPhoto size={16} />}
            value={ask.image}
            onChange={(f) => setAsk((a) => ({ ...a, image: f, mask: f ? a.mask : null }))}
          />
          {edit && (
            <FileInput
              label={t`Mask (optional)`}
              description={t`A PNG whose transparent areas mark where to edit.`}
              placeholder={t`No file chosen`}
              accept="image/png"
              clearable
              value={ask.mask}
              onChange={(f) => set('mask', f)}
            />
          )}
          <Button
            leftSection={edit ? <IconPhotoEdit size={16} /> : <IconSparkles size={16} />}
            onClick={() => void job.submit(ask)}
            disabled={!canSubmit}
            loading={job.busy}
          >
            {edit ? <Trans>Edit image</Trans> : <Trans>Generate images</Trans>}
          </Button>
        </Stack>
      </Card>
      <Card withBorder radius="md" style={{ flex: 1, minWidth: 0 }}>
        {job.error && (
          <Alert color="red" title={t`Image request failed`} mb="md">
            {serverTextInLanguage(job.error)}
          </Alert>
        )}
        {job.run ? (
          <RunView run={job.run} />
        ) : (
          <Center mih={240}>
            <Stack align="center" gap={4}>
              {job.busy ? <Loader size="md" /> : <IconPhoto size={40} opacity={0.4} />}
              <Text c="dimmed" size="sm" ta="center">
                {job.busy ? (
                  <Trans>Drawing…</Trans>
                ) : models.length === 0 && !loading ? (
                  <Trans>No image model is available to your groups yet.</Trans>
                ) : (
                  <Trans>Describe a picture and generate it; the pictures show here.</Trans>
                )}
              </Text>
            </Stack>
          </Center>
        )}
      </Card>
    </Flex>
  );
}

function RunView({ run }: { run: ImageRun }) {
  const { t } = useLingui();
  const count = run.pictures.length;
  return (
    <Stack gap="sm" data-testid="image-run">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={500}>
          {run.model}
        </Text>
        <Group gap="md">
          <Text size="sm" c="dimmed">
            {run.edit ? t`Image edit` : t`Image generation`} · <Plural value={count} one="# image" other="# images" />
            {run.size ? ` · ${run.size}` : ''}
          </Text>
          <Text size="sm" data-testid="image-cost">
            <Trans>Cost</Trans> {run.quota === null ? '…' : <Money quota={run.quota} />}
          </Text>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: count > 1 ? 2 : 1 }} spacing="sm">
        {run.pictures.map((p, i) => (
          <Card key={i} withBorder radius="sm" p="xs" data-testid="image-picture">
            <Image src={p.src} alt={p.revisedPrompt ?? t`Picture ${i + 1}`} fit="contain" mah="60vh" radius="xs" />
            <Group justify="space-between" mt="xs" wrap="nowrap" gap="xs">
              <Text size="xs" c="dimmed" lineClamp={2} style={{ minWidth: 0 }}>
                {p.revisedPrompt ?? ''}
              </Text>
              <Anchor href={p.src} download={downloadName(run.model, i, p.src)} size="sm" style={{ flexShrink: 0 }}>
                <Group gap={4} wrap="nowrap">
                  <IconDownload size={14} />
                  <Trans>Download</Trans>
                </Group>
              </Anchor>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
