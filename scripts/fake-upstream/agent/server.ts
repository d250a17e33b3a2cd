/*
 * Scripted agent upstreams for the real-client matrix (test/agents/): one loopback server per upstream
 * dialect, each request first checked by the strict validator of its API (strict/) and refused with the real
 * error when the real API would refuse it, then answered by the brain (brain.ts) through the dialect's
 * encoder, in JSON or SSE as asked. Every generation request is recorded with what the brain saw (how many
 * tool results and images came back) and what it did, so a test can tell which turn went wrong.
 * - `openai`: OpenAI (Chat Completions and Responses; chat answers carry no reasoning text, as OpenAI's don't).
 * - `openai-chat-only`: an OpenAI-compatible vendor in DeepSeek's manner (reasoning_content; /v1/responses 404).
 * - `responses-only`: an OpenAI model served only by the Responses API (chat completions refused, as OpenAI
 *   refuses them for codex and -pro models).
 * - `anthropic`: the Messages API (signed thinking). `gemini`: generateContent (thought signatures).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fakeNativePrompt, sendJson, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';
import { validateAnthropic, validateGemini, validateOpenAI, validateOpenAIChatOnly } from '../strict/index.ts';
import { openaiError } from '../strict/openai-common.ts';
import type { StrictValidator } from '../strict/types.ts';
import { answerAnthropic, readAnthropic } from './anthropic.ts';
import { decide } from './brain.ts';
import type { Json, Move, Turn } from './conversation.ts';
import { answerGemini, readGemini } from './gemini.ts';
import { answerChat, readChat } from './openai-chat.ts';
import { answerResponses, readResponses } from './openai-responses.ts';
import { TASK_MARK } from './task.ts';

export type AgentDialect = 'openai' | 'openai-chat-only' | 'responses-only' | 'anthropic' | 'gemini';

/** What the brain saw in one generation request and what it answered. */
export interface AgentTurn {
  path: string;
  /** The conversation's first task prompt (it names the client's folder, so a test finds its own turns). */
  task?: string;
  /** Tool results and images that came back in the request. */
  results: number;
  images: number;
  /** `call <tool>` or the answer text. */
  move: string;
  /** The strict validator's refusal (status and message) instead of an answer. */
  refused?: string;
}

export interface AgentUpstream extends FakeUpstream {
  dialect: AgentDialect;
  turns: AgentTurn[];
}

/** What OpenAI answers on chat completions for a model served only by the Responses API. */
const RESPONSES_ONLY_REFUSAL = {
  status: 404,
  body: {
    error: {
      message: 'This model is only supported in v1/responses and not in v1/chat/completions.',
      type: 'invalid_request_error',
      param: 'model',
      code: null,
    },
  },
};

const route = (path: string) => path.split('?')[0].replace(/^\/v1(?=\/)/, '');

const validateResponsesOnly: StrictValidator = (path, headers, body) =>
  route(path) === '/chat/completions' ? RESPONSES_ONLY_REFUSAL : validateOpenAI(path, headers, body);

const VALIDATORS: Record<AgentDialect, StrictValidator> = {
  openai: validateOpenAI,
  'openai-chat-only': validateOpenAIChatOnly,
  'responses-only': validateResponsesOnly,
  anthropic: validateAnthropic,
  gemini: validateGemini,
};

/** The task prompt in a refused body (the refusal came before the body was read): its first mention. */
const taskOf = (body: Json) => {
  const at = JSON.stringify(body).indexOf(TASK_MARK);
  return at < 0 ? undefined : JSON.stringify(body).slice(at, at + 300);
};

const refusalText = (r: { status: number; body: unknown }) => {
  const e = (r.body as Json).error as Json | undefined;
  return `${r.status} ${String(e?.message ?? JSON.stringify(r.body))}`;
};

export async function startAgentUpstream(dialect: AgentDialect): Promise<AgentUpstream> {
  const turns: AgentTurn[] = [];
  const validate = VALIDATORS[dialect];
  const fake = await startRecordingServer(async (req, res, body) => {
    const path = req.url ?? '';
    const answer = generation(dialect, req, path);
    const refusal = req.method === 'POST' ? validate(path, req.headers, body) : null;
    if (refusal) {
      if (answer)
        turns.push({ path, task: taskOf(body), results: 0, images: 0, move: '', refused: refusalText(refusal) });
      return sendJson(res, refusal.status, refusal.body);
    }
    if (!answer) return other(dialect, req, res, body);
    const turn = answer.read(body);
    const move = decide(turn);
    turns.push({
      path,
      task: turn.items.map((i) => (i.kind === 'user' ? i.text : '')).find((t) => t.includes(TASK_MARK)),
      results: turn.items.filter((i) => i.kind === 'result').length,
      images: turn.items.reduce((n, i) => n + (i.kind === 'user' || i.kind === 'result' ? i.images.length : 0), 0),
      move: move.call ? `call ${move.call.name}` : (move.text ?? ''),
    });
    answer.write(res, body, turn, move);
  });
  return { ...fake, dialect, turns };
}

interface Generation {
  read(body: Json): Turn;
  write(res: ServerResponse, body: Json, turn: Turn, move: Move): void;
}

/** The dialect's generation endpoint this request hits, or undefined for any other request. */
function generation(dialect: AgentDialect, req: IncomingMessage, path: string): Generation | undefined {
  if (req.method !== 'POST') return undefined;
  const r = route(path);
  if (dialect === 'anthropic') return r === '/messages' ? { read: readAnthropic, write: answerAnthropic } : undefined;
  if (dialect === 'gemini')
    return /:(generateContent|streamGenerateContent)$/.test(r)
      ? { read: readGemini, write: (res, body, turn, move) => answerGemini(res, path, body, turn, move) }
      : undefined;
  if (r === '/responses') return { read: readResponses, write: answerResponses };
  if (r === '/chat/completions')
    return {
      read: readChat,
      write: (res, body, turn, move) =>
        answerChat(res, body, turn, move, {
          reasoningField: dialect === 'openai-chat-only' ? 'reasoning_content' : undefined,
        }),
    };
  return undefined;
}

/** Token counting, model lists and connectivity checks; anything else is the API's 404. */
function other(dialect: AgentDialect, req: IncomingMessage, res: ServerResponse, body: Json) {
  const r = route(req.url ?? '');
  if (req.method === 'HEAD' || (req.method === 'GET' && r === '/')) return void res.writeHead(200).end();
  if (dialect === 'anthropic' && r === '/messages/count_tokens')
    return sendJson(res, 200, { input_tokens: fakeNativePrompt(body.messages, body.system) });
  if (dialect === 'gemini' && /:countTokens$/.test(r))
    return sendJson(res, 200, { totalTokens: fakeNativePrompt(body.contents, undefined) });
  if (req.method === 'GET' && r === '/models')
    return sendJson(res, 200, {
      object: 'list',
      data: [{ id: 'agent-model', object: 'model', created: 0, owned_by: 'agent' }],
    });
  if (dialect === 'anthropic')
    return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
  if (dialect === 'gemini')
    return sendJson(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
  return sendJson(res, 404, openaiError(`Unknown request URL: ${req.method} ${r}`).body);
}
