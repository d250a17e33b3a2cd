import { ChannelType, channelTypeInfo } from '../../../../shared/channel-types.ts';
import { anthropicAdapter, anthropicUsageOf, anthropicWatcher } from '../anthropic/adapter.ts';
import { baseModel, toAnthropicRequest } from '../anthropic/request.ts';
import { mapErrorBody } from '../shared/error-body.ts';
import type { AttemptContext, ProviderAdapter, StreamConverter, UpstreamError, UpstreamRequest } from '../types.ts';
import { converseToAnthropicEvents, fromConverseAnswer, toConverseBody } from './converse.ts';
import { decodeEventStream } from './event-stream.ts';
import { type BedrockCredentials, parseBedrockKey, signBedrockRequest } from './sign.ts';

/** The body field Bedrock wants instead of Anthropic's `anthropic-version` header. */
const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

const TYPE = ChannelType.Bedrock;

/**
 * Plain Anthropic names -> Bedrock model ids, derived from the channel type's default
 * models (`anthropic.claude-3-5-haiku-20241022-v1:0` also answers to `claude-3-5-haiku-20241022`).
 * Any other name (a Bedrock id, an inference profile such as `us.anthropic...`) is sent as given.
 */
const bedrockIds = new Map(
  (channelTypeInfo(TYPE)?.defaultModels ?? [])
    .filter((id) => id.startsWith('anthropic.'))
    .map((id) => [id.replace(/^anthropic\./, '').replace(/-v\d+:\d+$/, ''), id]),
);

const bedrockModelId = (model: string) => bedrockIds.get(model) ?? model;

/** Claude (an `anthropic.` id, or a cross-region profile such as `us.anthropic.`) speaks InvokeModel; the rest Converse. */
const isAnthropic = (model: string) => /(^|\.)anthropic\./.test(bedrockModelId(baseModel(model)));

function endpoint(ctx: AttemptContext, c: BedrockCredentials, model: string): string {
  // A base URL set on the channel (a VPC endpoint, a proxy, a test double) replaces the regional one.
  const base = ctx.channel.baseUrl || `https://bedrock-runtime.${c.region}.amazonaws.com`;
  const [once, streamed] = isAnthropic(model)
    ? ['invoke', 'invoke-with-response-stream']
    : ['converse', 'converse-stream'];
  return `${base}/model/${encodeURIComponent(bedrockModelId(model))}/${ctx.stream ? streamed : once}`;
}

/**
 * An Anthropic Messages body as Bedrock's InvokeModel takes it: the model moves to the
 * URL, streaming to the action, the API version into the body, and the `anthropic-beta`
 * values (the operator's claude.model_headers_settings, the client's header) into `anthropic_beta`.
 */
function toBedrockBody(ctx: AttemptContext, body: Record<string, unknown>, model: string, clientBeta?: string): string {
  const { model: _model, stream: _stream, ...rest } = body;
  const out: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest };
  const configured = ctx.options('claude.model_headers_settings')[model]?.['anthropic-beta'] ?? [];
  const betas = [...(Array.isArray(configured) ? configured : [configured]), clientBeta ?? '']
    .flatMap((b) => b.split(','))
    .map((b) => b.trim())
    .filter(Boolean);
  if (betas.length > 0 && out.anthropic_beta === undefined) out.anthropic_beta = [...new Set(betas)];
  return JSON.stringify(out);
}

/** The request before its signature (the caller merges param_override, then `sign`). */
function bedrockRequest(ctx: AttemptContext, body: Record<string, unknown>, model: string, clientBeta?: string) {
  const c = parseBedrockKey(ctx.key);
  const req: UpstreamRequest = {
    url: endpoint(ctx, c, model),
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ctx.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
    },
    body: isAnthropic(model) ? toBedrockBody(ctx, body, model, clientBeta) : JSON.stringify(toConverseBody(body)),
  };
  return req;
}

/** An Anthropic converter that reads Bedrock's event stream (its methods are closures, so they copy). */
const withEventStream = (inner: StreamConverter): StreamConverter => ({ ...inner, decode: decodeEventStream });

/** The same for a Converse stream: its events are turned into Anthropic ones first. */
function withConverseStream(inner: StreamConverter, model: string): StreamConverter {
  const translate = converseToAnthropicEvents(model);
  return {
    ...inner,
    async *decode(body) {
      for await (const events of decodeEventStream(body)) yield events.flatMap(translate);
    },
  };
}

/**
 * Bedrock errors are `{"message": "..."}`; the exception name travels in a header the relay
 * does not pass here, so the status and the wording tell a dead key (a bad access key or
 * signature, 403) from a model the account may not use (AccessDenied, also 403).
 */
function mapBedrockError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    const j = json as { message?: string; Message?: string } | null;
    const message = j?.message ?? j?.Message;
    if (typeof message !== 'string') return undefined;
    const badKey = status === 403 && /security token|signature|access key/i.test(message);
    const type =
      status === 429
        ? 'rate_limit_error'
        : badKey
          ? 'authentication_error'
          : status === 403
            ? 'access_denied'
            : status === 400
              ? 'invalid_request_error'
              : 'api_error';
    return { message, type };
  });
}

/**
 * AWS Bedrock (type 33): Claude through InvokeModel, every other chat model through
 * Converse (see converse.ts), both by way of the Anthropic adapter's conversions, signed
 * with SigV4 from the channel key `AK|SK|region`, streamed over AWS's binary event stream.
 * Anthropic-format requests (the /v1/messages door) for Claude go through natively.
 */
export const bedrockAdapter: ProviderAdapter = {
  id: 'bedrock',
  supports: (mode) => mode === 'chat',

  async buildRequest(ctx, body) {
    const out = await toAnthropicRequest(ctx, body);
    return bedrockRequest(ctx, out, String(out.model));
  },
  sign: (ctx, req) => signBedrockRequest(req, parseBedrockKey(ctx.key)),

  convertResponse: (ctx, text) =>
    anthropicAdapter.convertResponse(
      ctx,
      isAnthropic(ctx.upstreamModel) ? text : fromConverseAnswer(text, baseModel(ctx.upstreamModel)),
    ),
  createStreamConverter(ctx, clientWantsUsage) {
    const inner = anthropicAdapter.createStreamConverter(ctx, clientWantsUsage);
    return isAnthropic(ctx.upstreamModel)
      ? withEventStream(inner)
      : withConverseStream(inner, baseModel(ctx.upstreamModel));
  },
  mapError: mapBedrockError,

  native: {
    protocol: 'anthropic',
    // Only Claude takes an Anthropic body as it is; other models are converted like any OpenAI request.
    serves: isAnthropic,
    // The client's anthropic-beta header joins the operator's betas, in the body as Bedrock takes them.
    buildRequest: (ctx, body, clientHeaders) =>
      bedrockRequest(ctx, body, baseModel(ctx.upstreamModel), clientHeaders?.['anthropic-beta']),
    usageOf: anthropicUsageOf,
    createStreamWatcher: () => withEventStream(anthropicWatcher()),
  },
};
