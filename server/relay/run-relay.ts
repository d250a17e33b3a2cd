import { answerCall } from './answer.ts';
import { prepareCall, type RelayRequest } from './prepare.ts';
import type { RelayRuntime } from './runtime.ts';
import { serveCall } from './serve.ts';

/**
 * The relay's straight line (architecture.md), one step per module: prepare (body -> model limit
 * -> guards -> rate limits), serve (candidates -> price -> reserve -> attempts, a virtual model's
 * real models in turn), answer (JSON, stream or audio to the client) and settle (usage -> settlement
 * + log, one transaction, after the bytes are sent). Throws before the first byte only; afterwards
 * failures end the stream and are billed as produced.
 */
export async function runRelay(rt: RelayRuntime, r: RelayRequest): Promise<void> {
  const call = await prepareCall(rt, r);
  const served = await serveCall(rt, call);
  call.countSuccess();
  await answerCall(rt, call, served);
}
