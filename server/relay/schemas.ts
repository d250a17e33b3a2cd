import { z } from 'zod';
import { serverText } from '../../shared/server-messages.ts';
import type { RelayMode } from './providers/types.ts';

/*
 * Request bodies as far as the gateway reads them. Loose objects: every field we
 * do not know is kept and forwarded to the upstream untouched.
 */
const tokens = z.number().int().min(0).optional().nullable();
const common = {
  model: z.string({ message: serverText('relay.model_required') }).min(1, serverText('relay.model_required')),
  stream: z.boolean().optional().nullable(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional().nullable() }).optional().nullable(),
  max_tokens: tokens,
  max_completion_tokens: tokens,
  reasoning_effort: z.string().optional().nullable(),
};

const chatBody = z.looseObject({
  ...common,
  messages: z
    .array(z.looseObject({ role: z.string() }), { message: serverText('relay.messages_required') })
    .min(1, serverText('relay.messages_required')),
});
const completionsBody = z.looseObject({ ...common, prompt: z.unknown() });
const embeddingsBody = z.looseObject({ model: common.model, input: z.unknown() });
const responsesBody = z.looseObject({ ...common, input: z.unknown(), max_output_tokens: tokens });
// OpenAI lets these omit the model; the gateway routes and prices by the same default OpenAI uses.
const moderationsBody = z.looseObject({
  model: z.string().min(1).default('omni-moderation-latest'),
  input: z.unknown(),
});
const rerankBody = z.looseObject({
  model: common.model,
  query: z.unknown(),
  documents: z.array(z.unknown(), { message: serverText('relay.documents_required') }),
});
/**
 * new-api's console (and some SDK wrappers) send unset image fields as `null`, `''`, `'null'` or `'NaN'`
 * (a multipart field is always a string): those count as absent, and a numeric string as its number,
 * so an edit's `n=3` form field is checked like a JSON `n: 3`.
 */
const unsetText = new Set(['', 'null', 'undefined', 'nan']);
const imageFields = (body: unknown) => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) continue;
    if (typeof v === 'string' && unsetText.has(v.trim().toLowerCase())) continue;
    out[k] = k === 'n' && typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  }
  return out;
};
const imagesBody = z.preprocess(
  imageFields,
  z.looseObject({
    model: z.string().min(1).default('dall-e-2'),
    prompt: z.string({ message: serverText('relay.prompt_required') }).min(1, serverText('relay.prompt_required')),
    n: z.number({ message: 'n 必须是 1 到 10 之间的整数' }).int().min(1).max(10).optional(),
  }),
);

export type RelayBody = z.infer<typeof chatBody> | z.infer<typeof completionsBody> | z.infer<typeof embeddingsBody>;

const schemas: Record<RelayMode, z.ZodType<Record<string, unknown> & { model: string }>> = {
  chat: chatBody,
  completions: completionsBody,
  embeddings: embeddingsBody,
  responses: responsesBody,
  moderations: moderationsBody,
  rerank: rerankBody,
  images: imagesBody,
  image_edits: imagesBody,
  speech: z.looseObject({ model: common.model, input: z.string({ message: serverText('relay.input_required') }) }),
  transcriptions: z.looseObject({ model: common.model }),
  translations: z.looseObject({ model: common.model }),
};

/** Validates the body of a relay call; throws a ZodError (answered as 400 in the OpenAI shape). */
export function parseRelayBody(mode: RelayMode, body: unknown): Record<string, unknown> & { model: string } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return schemas[mode].parse({});
  return schemas[mode].parse(body);
}
