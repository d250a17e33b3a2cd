import { buildMultipart, type FormPart, PARTS } from '../../front-doors/multipart.ts';
import { countText } from '../../usage.ts';
import type { AttemptContext, Usage } from '../types.ts';
import { parseOpenAIUsage } from './usage.ts';

/** Multipart uploads (image edits, transcriptions) are rebuilt with the upstream model name. */
export function multipartBody(ctx: AttemptContext, body: Record<string, unknown>) {
  const parts = body[PARTS] as FormPart[] | undefined;
  return parts ? buildMultipart(parts, { model: ctx.upstreamModel }) : undefined;
}

/**
 * Transcription/translation answers: JSON `{text, usage?}` or plain text/srt/vtt
 * (response_format). Token usage when the model reports it (gpt-4o-transcribe),
 * else the produced text counted as completion (whisper reports none).
 */
export function audioTextResponse(
  ctx: AttemptContext,
  text: string,
): { body: string; usage?: Usage; produced: string } {
  let produced = text;
  let usage: Usage | undefined;
  try {
    const o = JSON.parse(text) as { text?: string; usage?: { type?: string } };
    produced = o.text ?? '';
    if (o.usage && o.usage.type !== 'duration') usage = parseOpenAIUsage(o.usage);
  } catch {
    // Plain-text formats: the whole body is the transcript.
  }
  usage ??= {
    promptTokens: 0,
    completionTokens: countText(ctx.upstreamModel, produced),
    cachedTokens: 0,
    cacheCreationTokens: 0,
  };
  return { body: text, usage, produced };
}
