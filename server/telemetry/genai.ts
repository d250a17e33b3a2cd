import { type Attributes, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { channelTypeInfo } from '../../shared/channel-types.ts';
import type { ChannelConfig } from '../relay/channel-config.ts';
import type { Usage } from '../relay/providers/types.ts';
import { type RequestTrace, traceHeaders } from './request-trace.ts';

/*
 * The relay's spans in the OpenTelemetry GenAI semantic conventions (issue 41;
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): the request's SERVER span becomes
 * `{operation} {model}` with the gen_ai.* request, response and usage attributes plus Switchyard's own
 * (switchyard.*); each upstream attempt is a CLIENT child span with its channel and status. Prompts
 * and completions are recorded only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, as
 * GenAI events; keys, headers and cookies never. Every function here is called only when the request
 * is traced (`traceOf(req)`), so the relay pays one WeakMap lookup when tracing is off.
 */

/** gen_ai.operation.name for the relay's modes (the spec's well-known values where one fits). */
const OPERATIONS: Record<string, string> = {
  chat: 'chat',
  responses: 'chat',
  completions: 'text_completion',
  embeddings: 'embeddings',
};

/** gen_ai.provider.name's well-known values by channel type; other types are named by their code name. */
const PROVIDERS: Record<string, string> = {
  OpenAI: 'openai',
  Azure: 'azure.ai.openai',
  Anthropic: 'anthropic',
  Gemini: 'gcp.gemini',
  VertexAI: 'gcp.vertex_ai',
  Bedrock: 'aws.bedrock',
  Cohere: 'cohere',
  DeepSeek: 'deepseek',
  Mistral: 'mistral_ai',
  Perplexity: 'perplexity',
  XAI: 'x_ai',
};

export const providerNameOf = (type: number): string => {
  const key = channelTypeInfo(type)?.key ?? `channel_type_${type}`;
  return PROVIDERS[key] ?? key.toLowerCase();
};

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** What the relay knows once the body is read: who calls, which model, and the request's parameters. */
export interface TracedCall {
  mode: string;
  model: string;
  stream: boolean;
  body: Record<string, unknown>;
  userId: number;
  tokenId: number;
  group: string;
}

export function traceCall(t: RequestTrace, c: TracedCall): void {
  const operation = OPERATIONS[c.mode] ?? c.mode;
  const b = c.body;
  const attributes: Attributes = {
    'gen_ai.operation.name': operation,
    'gen_ai.request.model': c.model,
    'switchyard.stream': c.stream,
    'switchyard.user.id': c.userId,
    'switchyard.token.id': c.tokenId,
    'switchyard.group': c.group,
  };
  const maxTokens = num(b.max_tokens) ?? num(b.max_completion_tokens) ?? num(b.max_output_tokens);
  if (maxTokens !== undefined) attributes['gen_ai.request.max_tokens'] = maxTokens;
  if (num(b.temperature) !== undefined) attributes['gen_ai.request.temperature'] = num(b.temperature);
  if (num(b.top_p) !== undefined) attributes['gen_ai.request.top_p'] = num(b.top_p);
  t.span.setAttributes(attributes);
  t.span.updateName(`${operation} ${c.model}`);
  if (t.tracing.captureContent) {
    const input = b.messages ?? b.input ?? b.prompt;
    if (input !== undefined)
      t.span.addEvent('gen_ai.client.inference.operation.details', {
        'gen_ai.input.messages': typeof input === 'string' ? input : JSON.stringify(input),
      });
  }
}

/** One upstream attempt as a CLIENT child span; `headers` carry its traceparent to the upstream. */
export interface AttemptSpan {
  headers: Record<string, string>;
  end(status: number | undefined, errorType?: string): void;
}

export function traceAttempt(t: RequestTrace, channel: ChannelConfig, model: string, attempt: number): AttemptSpan {
  const provider = providerNameOf(channel.type);
  const span: Span = t.tracing.tracer.startSpan(
    `attempt ${model} #${channel.id}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': model,
        'switchyard.channel.id': channel.id,
        'switchyard.channel.type': channel.type,
        'switchyard.attempt': attempt,
      },
    },
    t.context,
  );
  return {
    headers: traceHeaders(span),
    end(status, errorType) {
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      if (errorType !== undefined) {
        span.setAttribute('error.type', errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}

/** The call was served: which channel answered, after how many attempts, and the gateway's own time. */
export function traceServed(
  t: RequestTrace,
  s: { channel: ChannelConfig; upstreamModel: string; attempts: number; gatewayMs: number },
): void {
  t.span.setAttributes({
    'gen_ai.provider.name': providerNameOf(s.channel.type),
    'gen_ai.response.model': s.upstreamModel,
    'switchyard.channel.id': s.channel.id,
    'switchyard.channel.type': s.channel.type,
    'switchyard.attempts': s.attempts,
    'switchyard.gateway.duration_ms': Math.round(s.gatewayMs * 1000) / 1000,
  });
}

/** The answer went out: time to the first chunk (streams), finish reasons, the completion when captured. */
export function traceAnswered(
  t: RequestTrace,
  a: { stream: boolean; frtMs: number; finishReasons: string[]; produced: () => string },
): void {
  if (a.stream) t.span.setAttribute('gen_ai.response.time_to_first_chunk', a.frtMs / 1000);
  if (a.finishReasons.length) t.span.setAttribute('gen_ai.response.finish_reasons', a.finishReasons);
  if (t.tracing.captureContent)
    t.span.addEvent('gen_ai.client.inference.operation.details', {
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: a.produced() }] },
      ]),
    });
}

/** The settlement's usage and charge (the usage is the one billed: reported, or counted by the tokenizer). */
export function traceSettled(t: RequestTrace, s: { usage: Usage; quota: number }): void {
  t.span.setAttributes({
    'gen_ai.usage.input_tokens': s.usage.promptTokens,
    'gen_ai.usage.output_tokens': s.usage.completionTokens,
    'gen_ai.usage.cache_read.input_tokens': s.usage.cachedTokens,
    'gen_ai.usage.cache_creation.input_tokens': s.usage.cacheCreationTokens,
    'switchyard.quota': s.quota,
  });
}

/** The relay answered with an error: its code as error.type; the span ends in error status. */
export function traceFailure(t: RequestTrace, errorType: string): void {
  t.errorType = errorType;
}

/**
 * Collects the finish reasons a traced stream sends its client (in any door's spelling), by reading the
 * payloads the converter returns; the converter is changed in place so its other members stay as they are.
 */
export function watchFinishReasons<C extends { push(e: never): string[]; end(): string[] }>(c: C): string[] {
  const reasons: string[] = [];
  const scan = (out: string[]) => {
    for (const p of out)
      if (p.includes('_reason') || p.includes('finishReason'))
        for (const r of finishReasonsOf(p)) if (!reasons.includes(r)) reasons.push(r);
    return out;
  };
  const push = c.push.bind(c);
  const end = c.end.bind(c);
  Object.assign(c, { push: (e: never) => scan(push(e)), end: () => scan(end()) });
  return reasons;
}

/** finish_reason values of an OpenAI-shaped JSON answer, read without parsing it again. */
export function finishReasonsOf(body: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(/"(?:finish_reason|stop_reason|finishReason)"\s*:\s*"([^"]{1,40})"/g))
    if (!out.includes(m[1])) out.push(m[1]);
  return out;
}
