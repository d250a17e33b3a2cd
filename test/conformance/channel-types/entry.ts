/*
 * One channel type in the channel-type conformance suite (channel-types.test.ts, issue #30): the
 * type's strict fake upstream (its real wire format, scripts/fake-upstream/<provider>/), the channel
 * an operator would enter for it, and what the fake answers. Every door's official SDK then asks it
 * for a plain answer, a streamed one and an error, and the user is billed the fake's usage.
 */
import type { FakeUpstream, RecordedRequest } from '../../../scripts/fake-upstream/server.ts';
import { channelTypeInfo } from '../../../shared/channel-types.ts';

/** What every type's fake answers for `models.plain`: five pieces (one per stream event when streamed). */
export const TYPE_ANSWER = 'w0 w1 w2 w3 w4 ';

export interface ChannelTypeEntry {
  /** The channel type (shared/channel-types.ts). */
  type: number;
  /** Starts the type's strict fake on a loopback port. */
  start(): Promise<FakeUpstream>;
  /**
   * The channel as the operator enters it, given the fake's URL: the key in the form new-api
   * stores it, `other` (region, API version, account id...), settings; `baseUrl` defaults to the
   * fake's URL (a type whose URL carries more, e.g. a path prefix, sets its own).
   */
  channel(fakeUrl: string): { key: string; other?: string; setting?: object; baseUrl?: string };
  /**
   * Upstream model names: `plain` answers TYPE_ANSWER with `usage`; `error` gets the provider's
   * documented error answer (its real status and body).
   */
  models: { plain: string; error: string };
  /**
   * The usage the fake reports for the plain answer (what the log row shows and the user pays for);
   * absent for a provider that reports none (the gateway counts it: the log row must then agree with the SDK).
   */
  usage?: { prompt: number; completion: number };
  /** False for a provider without streaming (the gateway answers a stream of one piece). */
  streams?: boolean;
  /** The caller must read this in its own dialect, with this status, for `models.error`. */
  error: { status: number; message: string };
  /**
   * A credential the fake refuses the way the provider refuses a dead one (a wrong secret, a revoked
   * key), in the same form as `channel().key`: relaying with it must take the channel out of service.
   */
  deadKey?: string;
  /** Whether a recorded request is a generation call (not a token exchange, a poll or a model list). */
  isGeneration(r: RecordedRequest): boolean;
}

/** How the suite and the page name a type: `41 Vertex AI`. */
export const typeLabel = (type: number) => `${type} ${channelTypeInfo(type)?.name ?? 'unknown'}`;
