import type { FastifyReply, FastifyRequest } from 'fastify';
import { createCarryStore } from './canonical/carry.ts';
import { type ChannelConfig, pickKey, upstreamModelFor } from './channel-config.ts';
import { checkRequestGuards } from './content-guard.ts';
import { channelBody, nativeChannelBody } from './attempts.ts';
import { anthropicDoor } from './front-doors/anthropic/door.ts';
import { geminiDoor } from './front-doors/gemini/door.ts';
import type { FrontDoor } from './front-doors/types.ts';
import type { RelayPrincipal } from './principal.ts';
import { adapterFor } from './providers/index.ts';
import { nativeSupportFor, tokenCountFor } from './providers/native-support.ts';
import type { AttemptContext, NativeProtocol, ProviderAdapter } from './providers/types.ts';
import { applyReasoningSuffix, candidatesFor, modelsToTry, noChannelFor } from './model-choice.ts';
import type { RelayRuntime } from './runtime.ts';
import { selectChannel } from './select-channel.ts';
import { checkModel } from './token-auth.ts';
import { sendUpstream } from './upstream.ts';
import { countPromptTokens, loadTokenizers } from './usage.ts';

/*
 * Token counting (issue #20, docs/conversion.md › Token counting): Anthropic's
 * `POST /v1/messages/count_tokens` and Gemini's `POST /v1beta/models/{model}:countTokens`.
 *
 * The request is let in like a relayed one (token, group, the token's model limit, the request
 * guards) and its model resolved to the group's channels like one (virtual models, reasoning
 * suffixes, a pinned channel, the channel's model_mapping; the routing cache, no table read). Then:
 * - the picked channel counts itself when its provider has the door's own count endpoint
 *   (`ProviderAdapter.countTokens`: Anthropic count_tokens, Gemini countTokens): the client's body
 *   goes there with the channel's model name and its answer comes back as it came;
 * - otherwise, or when that call fails, the gateway counts the door's canonical body with the relay's
 *   tokenizer (usage.ts: o200k or cl100k by model, 3 tokens a message, tools as JSON, images by the
 *   tile rule) and answers in the door's shape.
 * A count generates nothing: no price is needed, nothing is reserved, billed or logged, and it is
 * left out of the model and token request limits (Claude Code counts before most turns: counting
 * must not eat the budget its completions need); the per-IP relay limit still applies.
 */

/** A count past this is of no use to a client about to send the request: the gateway counts instead. */
const UPSTREAM_COUNT_TIMEOUT_MS = 10_000;

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** What one door's count request carries. */
interface CountRequest {
  /** The model the client named (limits and routing use it). */
  model: string;
  /** The client's count body, for the provider's own count endpoint. */
  body: Record<string, unknown>;
  /** The door's canonical body of the same prompt, for the local count. */
  canonical: Record<string, unknown>;
  headers?: Record<string, string>;
}

interface CountDoor {
  protocol: NativeProtocol;
  read(req: FastifyRequest): CountRequest;
  /** The body with the channel's system prompt when the client sent none (as on generation requests). */
  withSystemPrompt(channel: ChannelConfig, body: Record<string, unknown>): Record<string, unknown>;
  answer(tokens: number): object;
}

const asObject = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The request as a door's `parse()` reads it, with another body and path parameters. */
function viewOf(req: FastifyRequest, body: unknown, params?: Record<string, string>): FastifyRequest {
  const view = Object.create(req) as FastifyRequest;
  Object.defineProperty(view, 'body', { value: body });
  if (params) Object.defineProperty(view, 'params', { value: params });
  return view;
}

/** The canonical body of a door, which needs nothing more than the door's own parse. */
function canonicalOf(door: FrontDoor, view: FastifyRequest) {
  const parsed = door.parse(view);
  return { canonical: parsed.canonical, headers: parsed.headers };
}

const anthropicCount: CountDoor = {
  protocol: 'anthropic',
  read(req) {
    const body = asObject(req.body);
    // A count body is a Messages body without max_tokens, which the door's parse requires: one is lent to it.
    const { canonical, headers } = canonicalOf(anthropicDoor, viewOf(req, { max_tokens: 1, ...body }));
    return { model: String(body.model), body, canonical, headers };
  },
  withSystemPrompt: (channel, body) => nativeChannelBody(channel, 'anthropic', body),
  answer: (tokens) => ({ input_tokens: tokens }),
};

/** `{model}:countTokens` in `/v1beta/models/*`. */
const geminiCountTarget = (req: FastifyRequest) =>
  /^(?:models\/)?(.+):countTokens$/.exec(decodeURIComponent((req.params as { '*'?: string })['*'] ?? ''))?.[1];

/** Whether a `/v1beta/models/*` POST is a countTokens call (the route shares its pattern with generateContent). */
export const isGeminiCountTokens = (req: FastifyRequest) => geminiCountTarget(req) !== undefined;

const geminiCount: CountDoor = {
  protocol: 'gemini',
  read(req) {
    const model = geminiCountTarget(req) ?? '';
    const body = asObject(req.body);
    // Two forms: `{contents}`, or the full request a generateContent call would send.
    const inner = 'generateContentRequest' in body ? asObject(body.generateContentRequest) : body;
    const { canonical } = canonicalOf(geminiDoor, viewOf(req, inner, { '*': `${model}:generateContent` }));
    return { model, body, canonical };
  },
  withSystemPrompt(channel, body) {
    if (!channel.systemPrompt) return body;
    // Only the full-request form has a place for a system instruction: `{contents}` is moved into one.
    const inner =
      'generateContentRequest' in body ? asObject(body.generateContentRequest) : { contents: body.contents };
    const withPrompt = nativeChannelBody(channel, 'gemini', inner);
    return withPrompt === inner ? body : { generateContentRequest: withPrompt };
  },
  answer: (tokens) => ({ totalTokens: tokens }),
};

/** The channel of the first attempt a relayed request of this model would make, and its upstream name. */
function pickChannel(rt: RelayRuntime, principal: RelayPrincipal, requested: string) {
  const model = applyReasoningSuffix(rt, principal, {}, modelsToTry(rt, principal, requested)[0]);
  const cand = selectChannel(candidatesFor(rt, principal, model), 0, new Set());
  if (!cand) throw noChannelFor(rt, principal.group, model);
  return { channel: cand.channel, upstreamModel: upstreamModelFor(cand.channel, model).name };
}

/** The provider's own count, or undefined when it failed in any way (the caller then counts itself). */
async function upstreamCount(
  req: FastifyRequest,
  adapter: ProviderAdapter,
  ctx: AttemptContext,
  door: CountDoor,
  count: CountRequest,
): Promise<string | undefined> {
  const native = tokenCountFor(adapter, door.protocol)!;
  try {
    const built = await native.buildRequest(ctx, door.withSystemPrompt(ctx.channel, count.body), count.headers);
    const signed = adapter.sign ? await adapter.sign(ctx, built) : built;
    const res = await sendUpstream(signed, AbortSignal.timeout(UPSTREAM_COUNT_TIMEOUT_MS));
    const text = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300 && native.inputTokensOf(text) !== undefined) return text;
    req.log.warn({ channel: ctx.channel.id, status: res.statusCode }, 'upstream token count failed; counted locally');
  } catch (err) {
    req.log.warn({ channel: ctx.channel.id, err }, 'upstream token count failed; counted locally');
  }
  return undefined;
}

async function countTokens(rt: RelayRuntime, door: CountDoor, req: FastifyRequest, reply: FastifyReply) {
  const { deps } = rt;
  const principal = await rt.tokenAuth.authenticate(req);
  const count = door.read(req);
  checkModel(principal.token, count.model);
  checkRequestGuards(deps, req, principal, count.canonical);
  const { channel, upstreamModel } = pickChannel(rt, principal, count.model);
  reply.header('x-request-id', req.id).type('application/json');

  const adapter = adapterFor(channel.type);
  const native =
    adapter !== undefined &&
    tokenCountFor(adapter, door.protocol) !== undefined &&
    (nativeSupportFor(adapter, door.protocol)?.serves?.(upstreamModel) ?? true);
  if (adapter && native) {
    const ctx: AttemptContext = {
      mode: 'chat',
      channel,
      key: pickKey(channel),
      upstreamModel,
      stream: false,
      options: deps.services.options.get,
      clientProtocol: door.protocol,
      carry: createCarryStore(deps.kv, principal.user.id),
    };
    const text = await upstreamCount(req, adapter, ctx, door, count);
    if (text !== undefined) return reply.send(text);
  }

  await loadTokenizers();
  const canonical = channelBody(channel, 'chat', count.canonical);
  return reply.send(door.answer(countPromptTokens(upstreamModel, canonical)));
}

/** The two count handlers, for front-doors/routes.ts. */
export function countTokensHandlers(rt: RelayRuntime): { anthropic: Handler; gemini: Handler } {
  return {
    anthropic: (req, reply) => countTokens(rt, anthropicCount, req, reply),
    gemini: (req, reply) => countTokens(rt, geminiCount, req, reply),
  };
}
