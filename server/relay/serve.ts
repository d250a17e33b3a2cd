import { type PriceInfo, reservationFor } from '../domains/billing/pricing.rules.ts';
import type { Reservation } from '../domains/billing/reserve.service.ts';
import { AppError } from '../errors.ts';
import { affinityFor, sessionOfCall } from './affinity/call-affinity.ts';
import type { SessionHint } from './affinity/session-id.ts';
import { AttemptsFailed, type AttemptSuccess, runAttempts } from './attempts.ts';
import { droppedToolsOf } from './dropped-tools.ts';
import { isImageMode } from './images/image-request.ts';
import { type ImageBilling, imageBillingOf, imageReservation } from './images/price.ts';
import { quotaShortfall, RelayError, relayRefusal } from './errors.ts';
import { applyReasoningSuffix, candidatesFor } from './model-choice.ts';
import { payerOf, type RelayPrincipal } from './principal.ts';
import type { RelayCall } from './prepare.ts';
import type { RelayRuntime } from './runtime.ts';
import { countPromptTokens, loadTokenizers } from './usage.ts';

/** The real model that answered, what it costs, the reservation taken for it and the upstream's answer. */
export interface Served {
  model: string;
  price: PriceInfo;
  /** Image calls (issue 44): what the pictures cost (images/price.ts); the settlement charges those returned. */
  image?: ImageBilling;
  reservation: Reservation;
  ok: AttemptSuccess;
  /** ms spent waiting on upstreams, the failed models' included (left out of the gateway's own time). */
  upstreamWaitMs: number;
  /** Declared tools the answering attempt left out (dropped-tools.ts): the answer's header and the log row. */
  droppedTools: string[];
}

/**
 * The relay's middle step: candidates -> price -> reserve -> attempts, for each real model in
 * turn. A virtual model's real models are tried in order (relay.md §3): the next one when every
 * channel of this one failed as a retry would (5xx, 429), never after a client error.
 */
export async function serveCall(rt: RelayRuntime, call: RelayCall): Promise<Served> {
  const { models, body } = call;
  let failedWaitMs = 0;
  const failedChannels: number[] = [];
  const session = sessionOfCall(rt.deps, call);
  for (let k = 0; ; k++) {
    const model = applyReasoningSuffix(rt, call.principal, body, models[k]);
    body.model = model;
    let served: Served;
    try {
      served = await serveWith(rt, call, model, session);
    } catch (err) {
      if (err instanceof AttemptsFailed) {
        failedWaitMs += err.upstreamWaitMs;
        failedChannels.push(...err.chain);
      }
      if (k + 1 >= models.length || call.abort.aborted || !worthAnotherModel(err)) throw err;
      continue;
    }
    // The log's channel chain shows the earlier models' channels too.
    if (failedChannels.length > 0) served.ok.chain.unshift(...failedChannels);
    served.upstreamWaitMs += failedWaitMs;
    return served;
  }
}

/** Failures another real model may not share: every channel down or saturated; not a client's mistake. */
const worthAnotherModel = (err: unknown) => err instanceof RelayError && (err.status >= 500 || err.status === 429);

/** candidates -> price -> reserve -> attempts for one real model; refunds its reservation when it fails. */
async function serveWith(
  rt: RelayRuntime,
  call: RelayCall,
  model: string,
  session: SessionHint | undefined,
): Promise<Served> {
  const { deps } = rt;
  const { principal, mode, body, generates, maxTokens } = call;
  // No channel is the 503 of relay.md §3 whether or not the model has a price.
  const candidates = candidatesFor(rt, principal, model);
  // The session's pin is read while the price is resolved and the quota reserved (a Redis round trip hides there).
  const affinity = affinityFor(deps, call, session, model);
  const priced = deps.services.billing.resolvePrice(model, principal.group, principal.user.acceptUnsetModels);
  if (!priced.ok) throw relayRefusal(403, 'billing.price_unset', 'model_price_error', { model });
  const price = priced.price;
  // Images: every picture asked, at its size and quality, or their tokens (images/price.ts).
  const image = isImageMode(mode) ? imageBillingOf(mode, model, body) : undefined;
  const needsEstimate = price.mode === 'ratio' && price.modelRatio > 0 && (!generates || maxTokens !== undefined);
  if (needsEstimate) await loadTokenizers();
  const estimate = needsEstimate && !image ? countPromptTokens(model, body) : 0;
  const amount = image
    ? imageReservation(price, image, model)
    : reservationFor(price, estimate, maxTokens, deps.services.options.get('PreConsumedQuota'), generates);
  const reservation = await reserve(rt, principal, amount, generates && price.mode === 'ratio');
  try {
    const ok = await runAttempts(deps, {
      mode,
      model,
      body,
      rawBody: call.rawBody,
      stream: call.stream,
      candidates,
      pinned: principal.pinnedChannelId !== null,
      abort: call.abort,
      native: call.nativeBody,
      userId: principal.user.id,
      onAttemptFailed: call.onAttemptFailed,
      traceAttempt: call.traceAttempt,
      affinity,
    });
    return {
      model,
      price,
      image,
      reservation,
      ok,
      upstreamWaitMs: ok.upstreamWaitMs,
      droppedTools: droppedToolsOf(call, ok),
    };
  } catch (err) {
    rt.track(deps.services.billing.refund(reservation));
    throw err;
  }
}

/** `boundByMaxTokens`: the amount is max_tokens' upper bound, so a shortfall may say to lower it. */
async function reserve(
  rt: RelayRuntime,
  p: RelayPrincipal,
  amount: number,
  boundByMaxTokens: boolean,
): Promise<Reservation> {
  const payer = payerOf(p);
  const { billing } = rt.deps.services;
  // relay.md §5 allows new-api's shortcut only here: an unlimited token of a user holding over 100x the
  // bound needs no reservation (the settlement is still conditional and never takes the balance below zero).
  // Not when a subscription may pay: its pool, not the wallet, must be reserved (memory-only check).
  if (p.token?.unlimited && amount > 0 && p.user.quotaSnapshot > amount * 100 && !billing.paysFromPool(payer))
    return { ...payer, id: '', quota: 0 };
  try {
    return await billing.reserve(payer, amount);
  } catch (err) {
    // The cached token may think it still has quota; re-read it next time so it shows as exhausted.
    if (err instanceof AppError && err.detail === 'token_quota_exhausted') rt.tokenAuth.forget(p);
    throw quotaShortfall(err, rt.deps.services.options.get, boundByMaxTokens) ?? err;
  }
}
