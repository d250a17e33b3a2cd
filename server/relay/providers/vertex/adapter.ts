import { defaultModelsQuery } from '../shared/channel-query.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import type { RelayCancel } from '../../cancel.ts';
import { refusal } from '../../errors.ts';
import { sendUpstream, syntheticAnswer } from '../../upstream.ts';
import {
  anthropicAdapter,
  anthropicHeaders,
  anthropicUsageOf,
  anthropicWatcher,
  mapAnthropicError,
} from '../anthropic/adapter.ts';
import { baseModel, toAnthropicRequest } from '../anthropic/request.ts';
import { geminiAdapter, isImagenModel, mapGeminiError } from '../gemini/adapter.ts';
import { thinkingOf } from '../gemini/request.ts';
import type { AttemptContext, ProviderAdapter, UpstreamError, UpstreamRequest } from '../types.ts';
import { parseVertexKey, type VertexKey, vertexAccessToken } from './credentials.ts';
import { nativeSupportFor } from '../native-support.ts';
import { vertexClaudeCount, vertexGeminiCount } from './count-tokens.ts';
import { isClaude, vertexClaudeId, vertexUrl } from './urls.ts';

/** The body field Vertex wants instead of Anthropic's `anthropic-version` header. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const geminiNative = nativeSupportFor(geminiAdapter, 'gemini')!;

/** Whether this attempt goes to the Anthropic publisher (a Claude model). */
const claudeCall = (ctx: AttemptContext) => isClaude(baseModel(ctx.upstreamModel));

/** Headers without the credential (`send` or the count adds the bearer token); express mode's API key. */
function vertexHeaders(ctx: AttemptContext, key: VertexKey, base: Record<string, string> = {}) {
  const { 'x-api-key': _a, 'anthropic-version': _v, 'x-goog-api-key': _g, ...rest } = base;
  const headers: Record<string, string> = {
    ...rest,
    'content-type': 'application/json',
    accept: ctx.stream ? 'text/event-stream' : 'application/json',
  };
  if (key.kind === 'api_key') headers['x-goog-api-key'] = key.apiKey;
  else headers['x-goog-user-project'] = key.account.project_id;
  return headers;
}

/** An Anthropic Messages body as Vertex's rawPredict takes it: no `model` (it is in the URL), the Vertex version. */
function claudeRequest(ctx: AttemptContext, body: Record<string, unknown>, clientBeta?: string): UpstreamRequest {
  const key = parseVertexKey(ctx.key);
  if (key.kind === 'api_key')
    throw refusal(
      400,
      'Vertex AI express mode (an API key) serves Gemini models only: Claude needs a service account key',
      'Vertex AI 快速模式（API Key）只支持 Gemini 模型：Claude 需要服务账号密钥',
      'invalid_channel_key',
    );
  const model = baseModel(ctx.upstreamModel);
  const { model: _m, ...rest } = body;
  const headers = vertexHeaders(ctx, key, anthropicHeaders(ctx, model));
  // The client's betas join the operator's (claude.model_headers_settings); Vertex reads the header.
  if (clientBeta) headers['anthropic-beta'] = [headers['anthropic-beta'], clientBeta].filter(Boolean).join(',');
  return {
    url: vertexUrl(ctx, key, vertexClaudeId(model), ctx.stream ? 'streamRawPredict' : 'rawPredict'),
    method: 'POST',
    headers,
    body: JSON.stringify({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest }),
  };
}

/** A request the Gemini adapter built (URL and key for AI Studio), sent to Vertex's Google publisher instead. */
function onVertex(ctx: AttemptContext, req: UpstreamRequest, action?: string): UpstreamRequest {
  const key = parseVertexKey(ctx.key);
  const model = thinkingOf(ctx, undefined).model;
  const act = action ?? (ctx.stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
  return { ...req, url: vertexUrl(ctx, key, model, act), headers: vertexHeaders(ctx, key, req.headers) };
}

/** The bearer token of a service-account key (undefined for an API key), or the token endpoint's refusal. */
export async function withVertexAuth(ctx: AttemptContext, req: UpstreamRequest) {
  const key = parseVertexKey(ctx.key);
  if (key.kind === 'api_key') return { req };
  const t = await vertexAccessToken(key.account);
  if ('refusedStatus' in t) return { refused: t };
  return { req: { ...req, headers: { ...req.headers, authorization: `Bearer ${t.token}` } } };
}

/** Sends with the key's cached access token; a refused service account answers as a dead key (401). */
async function sendWithToken(ctx: AttemptContext, req: UpstreamRequest, signal: AbortSignal | RelayCancel) {
  const auth = await withVertexAuth(ctx, req);
  if (auth.refused) return syntheticAnswer(auth.refused.refusedStatus, auth.refused.refusedBody);
  return sendUpstream(auth.req!, signal, ctx.headersTimeoutMs);
}

/**
 * Three error shapes: the token endpoint's `{error, error_description}` (the service account is
 * refused: a dead key), Claude's Anthropic body, and Google's `{"error":{code,message,status}}`.
 */
function mapVertexError(status: number, text: string): UpstreamError {
  let json: { type?: unknown; error?: unknown; error_description?: unknown } | undefined;
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    json = undefined;
  }
  if (typeof json?.error === 'string')
    return {
      status,
      message: `Google refused the channel's service account: ${String(json.error_description ?? json.error)} (${json.error})`,
      type: 'authentication_error',
      code: 'invalid_api_key',
    };
  return json?.type === 'error' ? mapAnthropicError(status, text) : mapGeminiError(status, text);
}

/**
 * Google Vertex AI (type 41): Gemini models through the Google publisher's generateContent, Claude
 * through the Anthropic publisher's rawPredict, both by way of the Gemini and Anthropic adapters'
 * conversions; authenticated with an OAuth token from the channel's service-account key (cached per
 * key), or an express-mode API key (Gemini only). Gemini-door requests for Gemini models go natively.
 */
export const vertexAdapter: ProviderAdapter = {
  id: 'vertex',
  supports: (mode) => mode === 'chat',

  async buildRequest(ctx, body) {
    if (claudeCall(ctx)) return claudeRequest(ctx, await toAnthropicRequest(ctx, body));
    return onVertex(ctx, await geminiAdapter.buildRequest(ctx, body));
  },
  send: sendWithToken,

  convertResponse: (ctx, text) =>
    claudeCall(ctx) ? anthropicAdapter.convertResponse(ctx, text) : geminiAdapter.convertResponse(ctx, text),
  createStreamConverter: (ctx, clientWantsUsage) =>
    claudeCall(ctx)
      ? anthropicAdapter.createStreamConverter(ctx, clientWantsUsage)
      : geminiAdapter.createStreamConverter(ctx, clientWantsUsage),
  mapError: mapVertexError,
  deadKeyStatuses: [403], // a service account without Vertex access, a disabled project: Google answers 403
  // Vertex has no per-project list of publisher models: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.VertexAI),

  countTokens: [vertexGeminiCount, vertexClaudeCount],

  // Each publisher's own door goes natively: Gemini models at the Gemini door, Claude at the Anthropic door.
  native: [
    {
      protocol: 'gemini',
      serves: (model) => !isClaude(baseModel(model)) && !isImagenModel(model),
      buildRequest: async (ctx, body) => onVertex(ctx, await geminiNative.buildRequest(ctx, body)),
      usageOf: (text) => geminiNative.usageOf(text),
      createStreamWatcher: (ctx) => geminiNative.createStreamWatcher(ctx),
    },
    {
      protocol: 'anthropic',
      serves: (model) => isClaude(baseModel(model)),
      buildRequest: (ctx, body, clientHeaders) => claudeRequest(ctx, body, clientHeaders?.['anthropic-beta']),
      usageOf: anthropicUsageOf,
      createStreamWatcher: anthropicWatcher,
    },
  ],
};

export { claudeRequest as vertexClaudeRequest, onVertex as vertexGeminiRequest };
