import type { OptionReader } from '../../../shared/options.ts';
import type { CarryStore } from '../canonical/carry.ts';
import type { ChannelConfig } from '../channel-config.ts';
import type { RelayCancel } from '../cancel.ts';
import type { UpstreamResponse } from '../upstream.ts';
import type { ChannelQuery } from './shared/channel-query.ts';

/**
 * The provider adapter contract. The relay's internal ("canonical") format is
 * OpenAI's wire format: front doors turn their dialect into it, adapters turn it
 * into the provider's format and back. Adapters only convert: they never touch
 * the database, billing, retries or the client socket.
 */

/** What the client asked for; decides the upstream path and the response shape. */
export type RelayMode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'responses'
  | 'moderations'
  | 'rerank'
  | 'images'
  | 'image_edits'
  | 'speech'
  | 'transcriptions'
  | 'translations';

/**
 * Token usage normalised for billing (relay.md §5).
 * `promptTokens` counts every input token including cache reads (`cachedTokens`);
 * cache writes (`cacheCreationTokens`) are NOT part of `promptTokens`, so an
 * Anthropic adapter adds cache reads to its `input_tokens` and leaves creations apart.
 */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheCreationTokens: number;
  /** Audio parts of promptTokens / completionTokens (OpenAI audio models; billed by AudioRatio). */
  audioPromptTokens?: number;
  audioCompletionTokens?: number;
  /** The reasoning part of completionTokens (already counted there), for doors that report it apart. */
  reasoningTokens?: number;
}

/** Everything an adapter needs to build one upstream call for one attempt. */
export interface AttemptContext {
  mode: RelayMode;
  channel: ChannelConfig;
  /** The key picked for this attempt (multi-key channels hold several). Never log it. */
  key: string;
  /** Model name sent upstream, after the channel's model_mapping and model_prefix. */
  upstreamModel: string;
  stream: boolean;
  /** Typed options (provider settings such as `claude.*` and `gemini.*`). */
  options: OptionReader;
  /**
   * The front door's protocol when the client came through the Anthropic or Gemini door (the
   * answer is converted back into it); undefined for OpenAI clients.
   */
  clientProtocol?: NativeProtocol;
  /** What must come back with a tool call on the next turn (reasoning signatures): canonical/carry.ts. */
  carry: CarryStore;
  /**
   * Tools the adapter left out of this attempt's request because the upstream cannot run them
   * (e.g. web_search_options on Anthropic): reported to the caller (relay/dropped-tools.ts).
   */
  droppedTools?: string[];
  /**
   * For adapters that set `reportsNoUsage`: the relay's own count (the request's prompt tokens and the
   * produced text's, as billing counts them), so the answer carries usage like any other.
   */
  countUsage?: (produced: string) => Usage;
  /** The relay's upstream headers timeout (tuning), for adapters that send their own requests (`send`). */
  headersTimeoutMs?: number;
}

/** A ready-to-send upstream HTTP request. */
export interface UpstreamRequest {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  /** A Buffer for multipart uploads. */
  body?: string | Buffer;
}

/** An upstream error mapped to OpenAI terms, for retry/auto-disable decisions and the client. */
export interface UpstreamError {
  status: number;
  message: string;
  /** Provider error type, e.g. `insufficient_quota`, `authentication_error`. */
  type?: string;
  /** Provider error code, e.g. `invalid_api_key`. */
  code?: string;
}

/** One server-sent event as read from the upstream. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Converts one upstream stream into canonical OpenAI chunks, one instance per attempt. */
export interface StreamConverter {
  /**
   * Feeds one upstream event; returns the `data:` payloads to send to the client
   * (already serialised; `[DONE]` included when the upstream ends the stream).
   */
  push(event: SseEvent): string[];
  /** Called when the upstream body ends; returns trailing payloads (e.g. a synthesized `[DONE]`). */
  end(): string[];
  /** Usage reported by the upstream, when it sent any. */
  usage(): Usage | undefined;
  /** Text produced so far (content, reasoning, tool-call arguments), for tokenizer billing. */
  producedText(): string;
  /** When true, payloads are complete SSE frames (`event:` lines included) and are written as they are. */
  frames?: boolean;
  /** Frames telling the client the stream broke, in its own protocol (frame converters only). */
  errorFrames?(message: string): string[];
  /**
   * Reads the upstream body into events when the provider does not stream SSE (AWS
   * Bedrock's binary event stream); absent, the body is read as SSE. Throws on a corrupt frame.
   */
  decode?(body: AsyncIterable<Uint8Array>): AsyncIterable<SseEvent[]>;
}

export interface ProviderAdapter {
  /** Whether this adapter can serve the mode for this channel (e.g. embeddings on a chat-only provider). */
  supports(mode: RelayMode): boolean;
  /**
   * Converts the canonical body into the provider's request (URL, headers, body).
   * `body` is the client's body with `model` already replaced; unknown fields must
   * be kept. Param overrides are merged by the caller into the returned request.
   */
  buildRequest(ctx: AttemptContext, body: Record<string, unknown>): UpstreamRequest | Promise<UpstreamRequest>;
  /**
   * Signs the final request, native ones included, after the caller merged the channel's
   * param_override: for providers whose signature covers the body (Bedrock's SigV4).
   */
  sign?(ctx: AttemptContext, req: UpstreamRequest): Promise<UpstreamRequest>;
  /**
   * Sends the finished request itself, for providers that are not one HTTP exchange (a WebSocket
   * API, an async task polled to completion). The answer must read like an HTTP one (upstream.ts
   * `syntheticAnswer`): a status, and a body the adapter's converters read (SSE text for a stream).
   * Absent, the request goes out through the shared HTTP pool.
   */
  send?(ctx: AttemptContext, req: UpstreamRequest, signal: AbortSignal | RelayCancel): Promise<UpstreamResponse>;
  /**
   * Converts a successful non-stream response into the canonical OpenAI body.
   * Returning the upstream text unchanged is the fast path for OpenAI-compatible providers.
   * `produced` is the generated text to count when there is no usage (read from `body` when absent).
   */
  convertResponse(ctx: AttemptContext, text: string): { body: string; usage?: Usage; produced?: string };
  /** A fresh stream converter for one streamed attempt; `clientWantsUsage` says whether to forward usage chunks. */
  createStreamConverter(ctx: AttemptContext, clientWantsUsage: boolean): StreamConverter;
  /** Maps a non-2xx upstream answer to an `UpstreamError`. */
  mapError(status: number, text: string): UpstreamError;
  /** Statuses besides 429 and 5xx worth another channel under the default retry rule (relay.md §4): retry.ts. */
  retryableStatuses?: readonly number[];
  /** Statuses besides 401 that mean the key is dead (relay.md §4): channel-health.ts. */
  deadKeyStatuses?: readonly number[];
  /** update_balance's query (USD) by channel type; a type absent has no balance endpoint. */
  balances?: Readonly<Partial<Record<number, ChannelQuery<number>>>>;
  /** fetch_models' query (model ids); absent, OpenAI's `GET /v1/models` (providers/index.ts). */
  models?: ChannelQuery<string[]>;
  /** The provider reports no token usage: the relay gives the adapter its own count (AttemptContext.countUsage). */
  reportsNoUsage?: boolean;
  /**
   * Images (issue 44): the request that downloads a picture URL this upstream answered with and marked
   * `_private` (images/image-answer.ts), e.g. one that needs the channel's key; absent, a plain GET.
   */
  imageFileRequest?(ctx: AttemptContext, url: string): UpstreamRequest;
  /** Short name shown in docs/providers.md (the OpenAI adapter when absent). */
  id?: string;
  /**
   * Set when the provider speaks a front door's own protocol: that door's body is relayed unchanged.
   * A list when it speaks several doors' (one each); read through native-support.ts.
   */
  native?: NativeSupport | readonly NativeSupport[];
  /** Set when the provider counts tokens itself (Anthropic count_tokens, Gemini countTokens): relay/count-tokens.ts. */
  countTokens?: NativeTokenCount | readonly NativeTokenCount[];
}

/** A provider's own token-counting endpoint, given the door's count body as the client sent it. */
export interface NativeTokenCount {
  /** The front door whose count requests this endpoint takes as they are. */
  protocol: NativeProtocol;
  /** The count request (model replaced by the channel's upstream name); `clientHeaders` as for NativeSupport. */
  buildRequest(
    ctx: AttemptContext,
    body: Record<string, unknown>,
    clientHeaders?: Record<string, string>,
  ): UpstreamRequest | Promise<UpstreamRequest>;
  /** The count in a 2xx answer; undefined when the answer does not hold one (the relay then counts itself). */
  inputTokensOf(text: string): number | undefined;
}

/**
 * Wire protocols that have their own front door besides OpenAI's chat (relay.md §1). `responses`
 * (OpenAI's Responses API) is spoken by channels, not adapters: openai/responses-bridge/channel.ts.
 * `imagen` (Imagen's :predict door, issue 44) is spoken by no adapter: its calls always go through
 * the canonical images body to the channels' image upstreams.
 */
export type NativeProtocol = 'anthropic' | 'gemini' | 'responses' | 'imagen';

/**
 * Same-protocol relaying (relay.md §8): a request that arrived in the provider's
 * own format goes upstream as it came (model replaced), and the answer comes back
 * as it came; the adapter only reads the usage out of it.
 */
export interface NativeSupport {
  protocol: NativeProtocol;
  /** Whether this upstream model takes the door's body as it is (every model when absent). */
  serves?(upstreamModel: string): boolean;
  /** `clientHeaders`: the door's protocol headers from the client (e.g. anthropic-beta), to pass on. */
  buildRequest(
    ctx: AttemptContext,
    body: Record<string, unknown>,
    clientHeaders?: Record<string, string>,
  ): UpstreamRequest | Promise<UpstreamRequest>;
  /** Usage of a native JSON answer. */
  usageOf(text: string): Usage | undefined;
  /** A pass-through converter: payloads are complete SSE frames, forwarded unchanged. */
  createStreamWatcher(ctx: AttemptContext): StreamConverter;
}
