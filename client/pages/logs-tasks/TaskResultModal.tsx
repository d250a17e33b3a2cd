import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Modal, Stack, Text } from '@mantine/core';
import { VideoPlayer } from '../../components/VideoPlayer.tsx';
import { type TaskRow, taskResult } from './types.ts';

/** A finished task's result: a video player, an audio player per clip, or the lyrics text. */
export function TaskResultModal({ task, onClose }: { task: TaskRow | null; onClose: () => void }) {
  const { t } = useLingui();
  const res = taskResult(task?.video ? null : task?.data);
  return (
    <Modal opened={task !== null} onClose={onClose} title={t`Task result`} size="lg" centered>
      <Stack gap="md">
        {task?.video && <VideoPlayer id={task.task_id} maxHeight="70vh" testId="task-video" />}
        {res.clips.map((c, i) => (
          <Stack key={c.id ?? i} gap={4}>
            <Text fw={500} size="sm">
              {c.title || <Trans>Clip {i + 1}</Trans>}
            </Text>
            <audio controls preload="none" src={c.audio_url} style={{ width: '100%' }} />
          </Stack>
        ))}
        {res.lyrics && (
          <Stack gap={4}>
            {res.lyrics.title && <Text fw={500}>{res.lyrics.title}</Text>}
            <Code block style={{ whiteSpace: 'pre-wrap' }}>
              {res.lyrics.text}
            </Code>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
