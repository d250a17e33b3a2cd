import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Flex,
  Group,
  NumberInput,
  Progress,
  Select,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { IconMovie, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Money } from '../../components/Money.tsx';
import { VideoPlayer } from '../../components/VideoPlayer.tsx';
import { serverTextInLanguage } from '../../lib/server-messages.ts';
import { useVideoJob } from './useVideoJob.ts';
import { type VideoAsk, type VideoJob } from './video-job.ts';

/** Pixel sizes the video upstreams take (Sora's four; others map them to an aspect ratio). */
const SIZES = ['1280x720', '720x1280', '1792x1024', '1024x1792'];

interface Props {
  groups: { value: string; label: string }[];
  defaultGroup: string;
  models: string[];
  loading: boolean;
}

/** The playground's video tab (issue 40): model, prompt, seconds, size -> progress -> player. */
export function VideoPanel({ groups, defaultGroup, models, loading }: Props) {
  const { t } = useLingui();
  const video = useVideoJob();
  const [ask, setAsk] = useState<VideoAsk>({ group: '', model: '', prompt: '', seconds: 0, size: '' });
  const set = <K extends keyof VideoAsk>(k: K, v: VideoAsk[K]) => setAsk((a) => ({ ...a, [k]: v }));

  useEffect(() => {
    setAsk((a) => ({ ...a, group: a.group || defaultGroup, model: a.model || (models[0] ?? '') }));
  }, [defaultGroup, models.join(',')]);

  const canSubmit = !video.busy && ask.model !== '' && ask.prompt.trim() !== '';

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
            label={t`Video model`}
            data={models}
            value={ask.model || null}
            onChange={(v) => set('model', v ?? '')}
            allowDeselect={false}
            searchable
            nothingFoundMessage={t`No models`}
          />
          <Textarea
            label={t`Prompt`}
            placeholder={t`Describe the video: subject, motion, camera, light`}
            autosize
            minRows={3}
            maxRows={8}
            value={ask.prompt}
            onChange={(e) => set('prompt', e.currentTarget.value)}
          />
          <Group grow align="flex-start">
            <NumberInput
              label={t`Seconds`}
              placeholder={t`Model default`}
              min={1}
              max={60}
              allowDecimal={false}
              value={ask.seconds || ''}
              onChange={(v) => set('seconds', typeof v === 'number' && v > 0 ? v : 0)}
            />
            <Select
              label={t`Size`}
              placeholder={t`Model default`}
              data={SIZES}
              value={ask.size || null}
              onChange={(v) => set('size', v ?? '')}
              clearable
            />
          </Group>
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            onClick={() => void video.submit(ask)}
            disabled={!canSubmit}
            loading={video.busy}
          >
            <Trans>Generate video</Trans>
          </Button>
        </Stack>
      </Card>
      <Card withBorder radius="md" style={{ flex: 1, minWidth: 0 }}>
        {video.error && (
          <Alert color="red" title={t`Video request failed`} mb="md">
            {serverTextInLanguage(video.error)}
          </Alert>
        )}
        {video.job ? (
          <JobView job={video.job} />
        ) : (
          <Center mih={240}>
            <Stack align="center" gap={4}>
              <IconMovie size={40} opacity={0.4} />
              <Text c="dimmed" size="sm" ta="center">
                {models.length === 0 && !loading ? (
                  <Trans>No video model is available to your groups yet.</Trans>
                ) : (
                  <Trans>Describe a video and generate it; it plays here when it is ready.</Trans>
                )}
              </Text>
            </Stack>
          </Center>
        )}
      </Card>
    </Flex>
  );
}

function JobView({ job }: { job: VideoJob }) {
  const { t } = useLingui();
  const seconds = job.seconds;
  const state = {
    queued: { label: t`Queued`, color: 'yellow' },
    in_progress: { label: t`In progress`, color: 'blue' },
    completed: { label: t`Success`, color: 'green' },
    failed: { label: t`Failed`, color: 'red' },
  }[job.state];
  return (
    <Stack gap="sm" data-testid="video-job" data-state={job.state}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Badge color={state.color} variant="light">
            {state.label}
          </Badge>
          <Text size="sm" fw={500}>
            {job.model}
          </Text>
        </Group>
        <Group gap="md">
          <Text size="sm" c="dimmed">
            <Trans>{seconds} s</Trans>
            {job.size ? ` · ${job.size}` : ''}
          </Text>
          <Text size="sm">
            <Trans>Cost</Trans> <Money quota={job.quota} />
          </Text>
        </Group>
      </Group>
      {job.state !== 'completed' && job.state !== 'failed' && (
        <Progress value={job.progress} animated striped aria-label={t`Progress`} />
      )}
      {job.state === 'failed' && (
        <Alert color="red" title={t`Fail reason`}>
          {serverTextInLanguage(job.error?.message ?? '')}
        </Alert>
      )}
      {job.state === 'completed' && <VideoPlayer id={job.id} maxHeight="60vh" />}
      <Text size="xs" c="dimmed" ff="monospace">
        {job.id}
      </Text>
    </Stack>
  );
}
