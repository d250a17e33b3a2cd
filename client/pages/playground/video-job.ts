import { errorText } from './chat-stream.ts';

/*
 * The playground's video job, through the console's video door (/pg/videos: the session pays, as on
 * /pg/chat/completions). No macros here: vitest may import it.
 */

/** A job as /pg/videos answers it (the gateway's VideoTaskView). */
export interface VideoJob {
  id: string;
  model: string;
  state: 'queued' | 'in_progress' | 'completed' | 'failed';
  progress: number;
  seconds: number;
  size?: string;
  quota: number;
  error?: { code: string; message: string };
}

export interface VideoAsk {
  group: string;
  model: string;
  prompt: string;
  /** 0 = the model's default. */
  seconds: number;
  /** '' = the model's default. */
  size: string;
}

export const isFinal = (j: VideoJob) => j.state === 'completed' || j.state === 'failed';

async function answer(res: Response): Promise<VideoJob> {
  if (!res.ok) throw new Error(await errorText(res));
  return (await res.json()) as VideoJob;
}

export async function submitVideo(ask: VideoAsk, headers: Record<string, string>): Promise<VideoJob> {
  const body = {
    model: ask.model,
    prompt: ask.prompt,
    group: ask.group,
    ...(ask.seconds > 0 ? { seconds: ask.seconds } : {}),
    ...(ask.size ? { size: ask.size } : {}),
  };
  return answer(
    await fetch('/pg/videos', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

export async function readVideo(id: string, headers: Record<string, string>): Promise<VideoJob> {
  return answer(await fetch(`/pg/videos/${encodeURIComponent(id)}`, { headers }));
}
