import type { FastifyRequest } from 'fastify';
import type { AttemptSuccess } from '../attempts.ts';
import type { NativeProtocol, StreamConverter, Usage } from '../providers/types.ts';

/**
 * A front door that speaks a protocol other than OpenAI's (relay.md §1, §8). The
 * relay core stays OpenAI-canonical: the door hands it a canonical body (used for
 * pricing, reservations and other-protocol channels) plus the client's own body
 * (relayed unchanged to same-protocol channels), then turns the answer back into
 * its protocol — unchanged when the attempt was native, converted otherwise.
 */
export interface FrontDoor {
  protocol: NativeProtocol;
  /**
   * Reads the request (body, path, query); throws a RelayError on a malformed one.
   * `headers` are the client's protocol headers kept when relaying natively (e.g. anthropic-beta).
   */
  parse(req: FastifyRequest): {
    canonical: Record<string, unknown>;
    body: Record<string, unknown>;
    headers?: Record<string, string>;
  };
  /** The JSON answer in the door's protocol, its usage, and the produced text (for tokenizer billing). */
  convertResponse(ok: AttemptSuccess, text: string): { body: string; usage?: Usage; produced?: string };
  /** A frame converter (`frames: true`) producing the door's SSE events. */
  createStreamConverter(ok: AttemptSuccess): StreamConverter;
}
