/*
 * Strict fake upstreams for the conformance suite (issue #20): the normal fakes, but each request
 * is first checked the way the real API checks it (unknown fields, orphan tool results, missing
 * signatures, unsupported schema keywords, wrong parameters for reasoning models) and refused with
 * the provider's real error body. A conversion bug then shows up as the 400 a user would get.
 */
import { startFakeAnthropic } from '../anthropic.ts';
import { startFakeGemini } from '../gemini.ts';
import { type FakeUpstream, startFakeOpenAI } from '../server.ts';
import { validateAnthropic } from './anthropic.ts';
import { validateGemini } from './gemini.ts';
import { validateOpenAI, validateOpenAIChatOnly } from './openai.ts';
import type { StrictDialect, StrictValidator } from './types.ts';

export type { StrictDialect, StrictRefusal, StrictValidator } from './types.ts';
export { validateAnthropic, validateGemini, validateOpenAI, validateOpenAIChatOnly };

/** The validator of each dialect (also usable on its own, e.g. to check a recorded request). */
export const STRICT_VALIDATORS: Record<StrictDialect, StrictValidator> = {
  openai: validateOpenAI,
  'openai-chat-only': validateOpenAIChatOnly,
  anthropic: validateAnthropic,
  gemini: validateGemini,
};

/**
 * Starts the fake upstream of a dialect in strict mode on a loopback port.
 * - `openai`: OpenAI itself (Chat Completions and Responses).
 * - `openai-chat-only`: an OpenAI-compatible vendor in DeepSeek's manner: chat completions only
 *   (`/v1/responses` is 404), unknown top-level fields ignored, messages checked.
 * - `anthropic`: the Messages API (and count_tokens).
 * - `gemini`: generateContent / streamGenerateContent (and countTokens).
 * Model names still choose the fakes' behaviours (behaviour.ts, native-http.ts).
 */
export function startStrictUpstream(dialect: StrictDialect): Promise<FakeUpstream> {
  const validate = STRICT_VALIDATORS[dialect];
  switch (dialect) {
    case 'openai':
    case 'openai-chat-only':
      return startFakeOpenAI({ validate });
    case 'anthropic':
      return startFakeAnthropic(0, { validate });
    case 'gemini':
      return startFakeGemini(0, { validate });
  }
}
