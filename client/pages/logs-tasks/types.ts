import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';

export type TaskRow = inferRouterOutputs<AppRouter>['tasks']['music'][number];

export interface SunoClip {
  id?: string;
  title?: string;
  audio_url?: string;
  image_url?: string;
}

/** What a finished Suno task holds: clips (music) or lyrics text; anything else shows nothing. */
export function taskResult(data: unknown): { clips: SunoClip[]; lyrics: { title: string; text: string } | null } {
  if (Array.isArray(data))
    return {
      clips: data.filter((c): c is SunoClip => typeof c === 'object' && c !== null && 'audio_url' in c),
      lyrics: null,
    };
  if (data && typeof data === 'object' && typeof (data as { text?: unknown }).text === 'string') {
    const d = data as { title?: unknown; text: string };
    return { clips: [], lyrics: { title: typeof d.title === 'string' ? d.title : '', text: d.text } };
  }
  return { clips: [], lyrics: null };
}
