import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../context.ts';
import { refusal } from './errors.ts';
import type { RelayPrincipal } from './principal.ts';
import { textOf } from './providers/shared/images.ts';

/*
 * Request guards from the global and sensitive-word settings: browser-extension
 * blocking (global.block_browser_extension_enabled) and the prompt word filter
 * (CheckSensitiveEnabled + CheckSensitiveOnPromptEnabled, stopping the request
 * when StopOnSensitiveEnabled), with the exempt group (global.safe_check_exempt_*).
 */

const extensionOrigin = /^(chrome|moz|safari-web|ms-browser)-extension:\/\//i;

let cachedWordsSource = '';
let cachedWords: string[] = [];
function wordsOf(source: string): string[] {
  if (source !== cachedWordsSource) {
    cachedWordsSource = source;
    cachedWords = source
      .split('\n')
      .map((w) => w.trim().toLowerCase())
      .filter(Boolean);
  }
  return cachedWords;
}

/** Every piece of prompt text a client can send: chat messages, completions prompt, embeddings/responses input. */
export function promptTextOf(body: Record<string, unknown>): string {
  const parts: string[] = [];
  if (Array.isArray(body.messages))
    for (const m of body.messages) parts.push(textOf((m as { content?: unknown })?.content));
  for (const key of ['prompt', 'input', 'instructions', 'system'] as const) {
    const v = body[key];
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) parts.push(...v.map((x) => (typeof x === 'string' ? x : textOf(x))));
  }
  return parts.join('\n');
}

export function checkRequestGuards(
  deps: AppDeps,
  req: FastifyRequest,
  principal: RelayPrincipal,
  body: Record<string, unknown>,
): void {
  const opt = deps.services.options.get;
  if (opt('global.block_browser_extension_enabled') && extensionOrigin.test(String(req.headers.origin ?? '')))
    throw refusal(
      403,
      'API calls from browser extensions are not allowed',
      '不允许通过浏览器插件调用 API',
      'browser_extension_blocked',
    );

  if (!opt('CheckSensitiveEnabled') || !opt('CheckSensitiveOnPromptEnabled')) return;
  if (opt('global.safe_check_exempt_enabled')) {
    const exempt = opt('global.safe_check_exempt_group')
      .split(',')
      .map((g) => g.trim());
    if (exempt.includes(principal.group)) return;
  }
  const words = wordsOf(opt('SensitiveWords'));
  if (words.length === 0) return;
  const text = promptTextOf(body).toLowerCase();
  const hit = words.find((w) => text.includes(w));
  if (!hit) return;
  if (opt('StopOnSensitiveEnabled'))
    throw refusal(
      400,
      `The request contains a sensitive word: ${hit}`,
      `请求包含敏感词：${hit}`,
      'sensitive_words_detected',
    );
  deps.log.warn(
    { userId: principal.user.id },
    'prompt contains a sensitive word (not stopped: StopOnSensitiveEnabled is off)',
  );
}
