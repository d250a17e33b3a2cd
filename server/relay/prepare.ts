import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AttemptInput } from './attempts.ts';
import { RelayCancel } from './cancel.ts';
import { checkRequestGuards } from './content-guard.ts';
import type { DoorRequest, FrontDoor } from './front-doors/types.ts';
import { modelsToTry } from './model-choice.ts';
import type { RelayPrincipal } from './principal.ts';
import type { RelayMode } from './providers/types.ts';
import { checkRelayLimits } from './relay-limits.ts';
import type { RelayRuntime } from './runtime.ts';
import { parseRelayBody } from './schemas.ts';
import { checkModel } from './token-auth.ts';

/** What a relay route hands over: the request, its authenticated caller and its front door. */
export interface RelayRequest {
  req: FastifyRequest;
  reply: FastifyReply;
  mode: RelayMode;
  principal: RelayPrincipal;
  /** performance.now() when the relay first saw the request (timing.ts). */
  startedAt: number;
  /** Native dialects (Anthropic, Gemini, Responses); absent for OpenAI's own endpoints. */
  door?: FrontDoor;
  /** Told of every upstream attempt that failed (run-relay.ts keeps them for the error log). */
  onAttemptFailed?: AttemptInput['onAttemptFailed'];
  /** Starts an attempt's span when the request is traced (run-relay.ts). */
  traceAttempt?: AttemptInput['traceAttempt'];
}

/** One relayed call as every later step (serve, answer, settle) needs it; built once by `prepareCall`. */
export interface RelayCall extends RelayRequest {
  /** Wall-clock ms of `startedAt` (the log row's time). */
  startedAtMs: number;
  /** The front door's reading of the client's body. */
  native?: DoorRequest;
  /** The validated canonical body; `model` becomes the real model being tried. */
  body: Record<string, unknown> & { model: string };
  /** Real models to try in order: a virtual model's reachable ones, else the requested model. */
  models: string[];
  /** The mode produces tokens (chat, completions, responses): output limits and streaming apply. */
  generates: boolean;
  stream: boolean;
  clientWantsUsage: boolean;
  /** The largest output limit the body sets, if any (the reservation's bound). */
  maxTokens: number | undefined;
  /** The client's body as received, when global.pass_through_request_enabled; else ''. */
  rawBody: string;
  /** The client's own body for channels that speak the door's protocol. */
  nativeBody: AttemptInput['native'];
  /** Fires when the client goes away before the answer finished. */
  abort: RelayCancel;
  /** Counts a success against the token's rate limit (called once an upstream answered). */
  countSuccess: () => void;
}

/**
 * The relay's first step (architecture.md): read the body (through the front door), then the
 * checks that need it (model limit, content guards, rate limits), then what the later steps
 * read of it. Throws the refusal; nothing is reserved yet.
 */
export async function prepareCall(rt: RelayRuntime, r: RelayRequest): Promise<RelayCall> {
  const { deps } = rt;
  const { req, reply, principal, door } = r;
  const opt = deps.services.options.get;
  const startedAtMs = Date.now() - (performance.now() - r.startedAt);
  // Native front doors (Anthropic, Gemini, Responses) hand over a canonical OpenAI body and keep the client's own.
  const native = door?.parse(req);
  if (native && door?.resolve) await door.resolve(native, { kv: deps.kv, userId: principal.user.id });
  // A door may turn the call into an image call (issue 44: Gemini's generateContent on an image model).
  const mode = native?.mode ?? r.mode;
  const body = parseRelayBody(mode, native ? native.canonical : req.body);
  checkModel(principal.token, body.model);
  const models = modelsToTry(rt, principal, body.model);
  checkRequestGuards(deps, req, principal, body);
  const countSuccess = await checkRelayLimits(deps, principal);

  const generates = mode === 'chat' || mode === 'completions' || mode === 'responses';
  // Image modes are never streamed upstream: a door that streams gets one whole answer (answer-images.ts).
  const stream = generates && body.stream === true;
  const so = body.stream_options as { include_usage?: boolean } | null | undefined;
  const limits = [body.max_tokens, body.max_completion_tokens, body.max_output_tokens].filter(
    (v): v is number => typeof v === 'number',
  );
  const nativeBody =
    door && native
      ? { protocol: door.protocol, body: native.body, headers: native.headers, nativeOnly: native.nativeOnly }
      : undefined;

  const abort = new RelayCancel();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });

  return {
    ...r,
    mode,
    startedAtMs,
    native,
    body,
    models,
    generates,
    stream,
    clientWantsUsage: stream && so?.include_usage === true,
    maxTokens: limits.length > 0 ? Math.max(...limits) : undefined,
    rawBody: opt('global.pass_through_request_enabled') ? JSON.stringify(req.body) : '',
    nativeBody,
    abort,
    countSuccess,
  };
}
