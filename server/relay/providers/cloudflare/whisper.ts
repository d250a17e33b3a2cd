import { PARTS, type FormPart } from '../../front-doors/multipart.ts';
import { refusal } from '../../errors.ts';
import { audioTextResponse } from '../openai/audio.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import type { AttemptContext, UpstreamRequest, Usage } from '../types.ts';

/*
 * OpenAI's /v1/audio/transcriptions on Workers AI's whisper: the uploaded file's bytes are the body
 * of `POST .../ai/run/@cf/openai/whisper`, and `{result: {text, words, vtt}}` comes back as OpenAI's
 * transcription in the format asked (json, text, verbose_json, vtt). Billed as OpenAI's whisper is:
 * the transcript's tokens as completion (openai/audio.ts).
 */

/** The response_format each attempt asked for (read back when its answer is converted). */
const formats = new WeakMap<AttemptContext, string>();

/** The Workers AI model: the channel's upstream name when it is a catalogue id (`@cf/...`), else whisper. */
export const whisperModel = (model: string) => (model.includes('/') ? model : '@cf/openai/whisper');

export function whisperRequest(
  ctx: AttemptContext,
  accountBase: string,
  body: Record<string, unknown>,
): UpstreamRequest {
  const file = (body[PARTS] as FormPart[] | undefined)?.find((p) => p.name === 'file' && p.filename !== undefined);
  if (!file)
    throw refusal(400, 'The transcription request has no audio file', '转写请求缺少音频文件', 'invalid_request');
  formats.set(ctx, typeof body.response_format === 'string' ? body.response_format : 'json');
  return {
    url: `${accountBase}/ai/run/${whisperModel(ctx.upstreamModel)}`,
    method: 'POST',
    headers: {
      'content-type': file.contentType || 'application/octet-stream',
      accept: 'application/json',
      authorization: `Bearer ${ctx.key}`,
    },
    body: file.data,
  };
}

interface WhisperResult {
  text?: string;
  word_count?: number;
  words?: { word: string; start: number; end: number }[];
  vtt?: string;
}

export function fromWhisperAnswer(
  ctx: AttemptContext,
  text: string,
): { body: string; usage?: Usage; produced: string } {
  let result: WhisperResult | undefined;
  try {
    result = (JSON.parse(text) as { result?: WhisperResult }).result;
  } catch {
    throw unparsableUpstreamJson();
  }
  const transcript = result?.text ?? '';
  const billed = audioTextResponse(ctx, JSON.stringify({ text: transcript }));
  const format = formats.get(ctx) ?? 'json';
  const words = result?.words ?? [];
  const body =
    format === 'text'
      ? transcript
      : format === 'vtt'
        ? (result?.vtt ?? '')
        : format === 'verbose_json'
          ? JSON.stringify({ task: 'transcribe', duration: words.at(-1)?.end ?? 0, text: transcript, words })
          : billed.body;
  return { ...billed, body };
}
