import type { FastifyRequest } from 'fastify';
import type { KeyValueStore } from '../../cache/kv.ts';
import type { AttemptSuccess } from '../attempts.ts';
import type { RelayError } from '../errors.ts';
import type { ImagesAnswer } from '../images/image-answer.ts';
import type { NativeProtocol, RelayMode, StreamConverter, Usage } from '../providers/types.ts';

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
  parse(req: FastifyRequest): DoorRequest;
  /**
   * Completes a parsed request with what the relay keeps for the client (the Responses door's
   * conversation under previous_response_id); called once, before pricing, when present.
   */
  resolve?(request: DoorRequest, env: DoorEnv): Promise<void>;
  /**
   * The JSON answer in the door's protocol, its usage, and the produced text (for tokenizer billing).
   * `canonical` is the request as relayed (e.g. to count the prompt when the upstream reports no usage).
   */
  convertResponse(
    ok: AttemptSuccess,
    text: string,
    canonical?: Record<string, unknown>,
    request?: DoorRequest,
  ): { body: string; usage?: Usage; produced?: string; images?: number };
  /**
   * Image requests (issue 44, `DoorRequest.mode`): the door's answer for an attempt that was not
   * native, from the canonical images answer after delivery (images/delivery.ts: base64 already
   * fetched when the door asked for it). Native attempts go through `convertResponse` as usual.
   */
  convertImages?(ok: AttemptSuccess, answer: ImagesAnswer, request?: DoorRequest): string;
  /** A frame converter (`frames: true`) producing the door's SSE events (`canonical` as above). */
  createStreamConverter(
    ok: AttemptSuccess,
    canonical?: Record<string, unknown>,
    request?: DoorRequest,
  ): StreamConverter;
}

/** What a door may need of the relay while reading a request (the Responses door's stored conversations). */
export interface DoorEnv {
  kv: KeyValueStore;
  /** The paying user: stored state is scoped to it. */
  userId: number;
}

/** A request as a door read it; handed back to the door with the answer. */
export interface DoorRequest {
  canonical: Record<string, unknown>;
  /**
   * The mode the relay runs instead of the route's (issue 44): `images` or `image_edits` when the
   * client asked an image model (Gemini's generateContent with image output, Imagen's :predict), so
   * the call is priced per image and reaches every image upstream; `canonical` is then OpenAI's images
   * body (images/image-request.ts).
   */
  mode?: RelayMode;
  /**
   * An image call (`mode`) whose client asked a streamed answer (Gemini's streamGenerateContent): the
   * upstream still answers once, and the door's bodies for it (convertImages, convertResponse of a
   * native attempt) are already SSE events, to be sent as text/event-stream.
   */
  sse?: boolean;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  /**
   * Why the request can only be relayed natively (e.g. a Responses built-in tool): the answer on
   * every channel that does not speak the door's protocol.
   */
  nativeOnly?: RelayError;
  /**
   * Tools the client declared that the canonical form leaves out, because they run on the door's
   * own provider (OpenAI's web_search, Anthropic's server tools): reported when a converted channel
   * answers (dropped-tools.ts), never when the body went natively.
   */
  droppedTools?: string[];
  /** The door's own per-request state (e.g. the Responses id and the conversation to store). */
  state?: unknown;
}
