/**
 * The OpenAI dialects' validators: OpenAI itself (Chat Completions and Responses) and a chat-only
 * OpenAI-compatible vendor in DeepSeek's manner (no Responses API).
 */
import { checkChat } from './openai-chat.ts';
import { checkResponses } from './openai-responses.ts';
import type { StrictValidator } from './types.ts';

/** The route under the fake's prefixes (`/v1`, Azure deployments), as server.ts maps them. */
function route(path: string): string {
  return path
    .split('?')[0]
    .replace(/^\/(v1|v2|api\/v3|api\/paas\/v4)(?=\/)/, '')
    .replace(/^\/openai\/deployments\/[^/]+/, '');
}

export const validateOpenAI: StrictValidator = (path, _headers, body) => {
  const r = route(path);
  if (r === '/chat/completions') return checkChat(body, 'openai');
  if (r === '/responses') return checkResponses(body);
  return null;
};

export const validateOpenAIChatOnly: StrictValidator = (path, _headers, body) => {
  const r = route(path);
  // vLLM-style servers without the Responses API answer FastAPI's 404.
  if (r === '/responses' || r.startsWith('/responses/')) return { status: 404, body: { detail: 'Not Found' } };
  if (r === '/chat/completions') return checkChat(body, 'deepseek');
  return null;
};
