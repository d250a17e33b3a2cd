import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { PIECES, sendJson } from '../native-http.ts';

/*
 * DashScope's OpenAI-compatible mode (`/compatible-mode/v1/...`) as the fake answers it: chat
 * (JSON and SSE; usage in a last chunk only with `stream_options.include_usage`), embeddings and
 * the model list. Errors in OpenAI's shape with DashScope's codes and wording.
 */

type Json = Record<string, unknown>;

export const ALI_USAGE = { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 };
export const ALI_REASONING = ['think ', 'hard '];
export const ALI_FAIL_400 = {
  code: 'data_inspection_failed',
  message: 'Input data may contain inappropriate content.',
  type: 'data_inspection_failed',
};

const CHAT_MODEL = /^(qwen|qwq|qvq)[\w.-]*$/;
const EMBEDDING_MODEL = /^text-embedding-v[1-4]$/;
export const ALI_MODELS = ['qwen-max', 'qwen-plus', 'qwen-turbo', 'qwen3-32b', 'qwq-plus', 'text-embedding-v3'];
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

export const openAIError = (res: ServerResponse, status: number, code: string, message: string, type: string) =>
  sendJson(res, status, { error: { code, param: null, message, type }, request_id: randomUUID() });

const badParam = (res: ServerResponse, message: string) =>
  openAIError(res, 400, 'invalid_parameter_error', message, 'invalid_request_error');

/**
 * Models that only think (QwQ, `-thinking` releases), were asked to (enable_thinking), or think unless
 * told not to (Qwen3's open-weight hybrids such as qwen3-32b).
 */
const thinks = (model: string, body: Json) =>
  /^(qwq|qvq)|-thinking/.test(model) ||
  body.enable_thinking === true ||
  (/^qwen3-\d+(\.\d+)?b(-a\d+(\.\d+)?b)?$/.test(model) && body.enable_thinking !== false);

export function compatibleChat(res: ServerResponse, body: Json) {
  const full = String(body.model ?? '');
  const [model, behaviour] = full.split('+');
  if (!model) return badParam(res, 'Model not exist.');
  if (!CHAT_MODEL.test(model))
    return openAIError(
      res,
      404,
      'model_not_found',
      `The model \`${full}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
    );
  const messages = body.messages as Json[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0)
    return badParam(res, '<400> InternalError.Algo.InvalidParameter: Input should be a valid list');
  for (const m of messages) {
    if (!ROLES.has(String(m?.role)))
      return badParam(res, `Role must be in [user, assistant, system, tool], got ${String(m?.role)}`);
    if (m.role !== 'assistant' && (m.content === undefined || m.content === null))
      return badParam(res, '<400> InternalError.Algo.InvalidParameter: Input content is empty');
  }
  if (body.stream !== true && thinks(model, body))
    return /^(qwq|qvq)|-thinking/.test(model)
      ? badParam(res, 'This model only support stream mode, please enable the stream parameter to access the model. ')
      : badParam(res, 'parameter.enable_thinking must be set to false for non-streaming calls');
  if (
    body.thinking_budget !== undefined &&
    !(Number.isInteger(body.thinking_budget) && (body.thinking_budget as number) > 0)
  )
    return badParam(res, 'thinking_budget must be a positive integer');
  if (typeof body.top_p === 'number' && (body.top_p <= 0 || body.top_p > 1))
    return badParam(res, 'Range of top_p should be (0.0, 1.0]');
  if (typeof body.temperature === 'number' && (body.temperature < 0 || body.temperature >= 2))
    return badParam(res, 'Range of temperature should be [0.0, 2.0)');
  if (behaviour === 'fail-400')
    return openAIError(res, 400, ALI_FAIL_400.code, ALI_FAIL_400.message, ALI_FAIL_400.type);

  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const reasoning = thinks(model, body) ? ALI_REASONING : [];
  if (body.stream !== true)
    return sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model: full,
      choices: [
        { index: 0, message: { role: 'assistant', content: PIECES.join('') }, finish_reason: 'stop', logprobs: null },
      ],
      usage: ALI_USAGE,
      system_fingerprint: null,
    });
  res.writeHead(200, { 'content-type': 'text/event-stream;charset=UTF-8' });
  const chunk = (delta: Json, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: full, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], usage: null })}\n\n`;
  for (const r of reasoning) res.write(chunk({ role: 'assistant', content: null, reasoning_content: r }));
  for (const [i, piece] of PIECES.entries()) {
    if (behaviour === 'fail-mid' && i === 2) {
      res.end(
        `data: ${JSON.stringify({ error: { code: 'InternalError', message: 'An internal error has occured, please try again later.', type: 'internal_error' } })}\n\n`,
      );
      return;
    }
    res.write(chunk({ content: piece, ...(i === 0 && reasoning.length === 0 ? { role: 'assistant' } : {}) }));
  }
  res.write(chunk({}, 'stop'));
  const so = body.stream_options as { include_usage?: unknown } | undefined;
  if (so?.include_usage === true)
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: full, choices: [], usage: ALI_USAGE })}\n\n`,
    );
  res.end('data: [DONE]\n\n');
}

export function compatibleEmbeddings(res: ServerResponse, body: Json) {
  const model = String(body.model ?? '');
  if (!EMBEDDING_MODEL.test(model))
    return openAIError(
      res,
      404,
      'model_not_found',
      `The model \`${model}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
    );
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || !input.every((s) => typeof s === 'string' && s))
    return badParam(
      res,
      '<400> InternalError.Algo.InvalidParameter: Value error, contents is neither str nor list of str.',
    );
  if (input.length > 10)
    return badParam(
      res,
      '<400> InternalError.Algo.InvalidParameter: Value error, batch size is invalid, it should not be larger than 10.',
    );
  const dims = body.dimensions === undefined ? 4 : Number(body.dimensions);
  return sendJson(res, 200, {
    object: 'list',
    model,
    data: input.map((_, index) => ({
      object: 'embedding',
      index,
      embedding: Array.from({ length: Math.min(dims, 8) }, (_v, j) => (index + j) / 10),
    })),
    usage: { prompt_tokens: 3 * input.length, total_tokens: 3 * input.length },
    id: randomUUID(),
  });
}

export const compatibleModels = (res: ServerResponse) =>
  sendJson(res, 200, {
    object: 'list',
    data: ALI_MODELS.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'system' })),
  });
