import { createHash } from 'node:crypto';
import { enabledKeyIndices } from '../../../shared/channel-info.ts';
import type { KeyValueStore } from '../../cache/kv.ts';
import type { ChannelConfig } from '../channel-config.ts';
import type { Candidate } from '../routing-cache.ts';
import type { SessionHint } from './session-id.ts';

/*
 * Session affinity (docs/configuration.md § Session affinity, new-api's "channel affinity"): upstream prompt caches live per
 * provider account and key, so the turns of one agent session go to the channel and key that answered
 * the last one. The pin is kept in the shared kv store (memory, or Redis with several instances) under
 * the user, the session, the group and the model, for a sliding TTL (channel_affinity_setting.default_ttl_seconds).
 * It only chooses the first attempt: a pinned channel that is gone (disabled, deleted, no longer serving
 * the model in the group) or a key that is disabled is passed over, a failed attempt falls through to the
 * normal retries, and whichever attempt answers becomes the new pin.
 */

export interface Pin {
  channelId: number;
  /** Fingerprint of the pinned key ('' for a single-key channel): an edit that reorders keys keeps the pin. */
  keyFp: string;
  /** Unix seconds of the write: an unchanged pin is written again only after a while. */
  writtenAt: number;
}

export interface SessionAffinity {
  /** The stored pin, read once per call and model (started early so a Redis read overlaps the reservation). */
  pin: Promise<Pin | undefined>;
  /** After a 2xx answer: the session's next turn goes to this channel and key (fire and forget). */
  remember(channel: ChannelConfig, key: string): void;
}

/** An unchanged pin is rewritten (its TTL renewed) at most this often, so a busy session costs one write a minute. */
const REFRESH_SECONDS = 60;
/** A slow or unreachable store (Redis down) holds no request longer than this: it is routed as if unpinned. */
const READ_WAIT_MS = 100;

/** The stored pin, or undefined after READ_WAIT_MS. */
function readPin(kv: KeyValueStore, key: string): Promise<Pin | undefined> {
  let giveUp = (): void => undefined;
  const late = new Promise<undefined>((resolve) => (giveUp = () => resolve(undefined)));
  const timer = setTimeout(giveUp, READ_WAIT_MS);
  const read = kv.get(key).then(parsePin, () => undefined);
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

const fingerprint = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** Key fingerprints per parsed channel; a routing reload parses anew, so the cache follows key edits. */
const fingerprints = new WeakMap<ChannelConfig, string[]>();
function keyFingerprints(channel: ChannelConfig): string[] {
  let fps = fingerprints.get(channel);
  if (!fps) fingerprints.set(channel, (fps = channel.keys.map(fingerprint)));
  return fps;
}

/** The pinned key's fingerprint ('' for a single-key channel): what the pin and the log row name it by. */
export const keyFpOf = (channel: ChannelConfig, key: string) => {
  if (channel.keys.length <= 1) return '';
  const i = channel.keys.indexOf(key);
  return i < 0 ? '' : keyFingerprints(channel)[i];
};

export const parsePin = (v: string | undefined): Pin | undefined => {
  const m = v ? /^(\d+):([0-9a-f]*):(\d+)$/.exec(v) : null;
  return m ? { channelId: Number(m[1]), keyFp: m[2], writtenAt: Number(m[3]) } : undefined;
};

/** Every pin's store key starts so: the admin screen counts and clears pins by it. */
export const PIN_KEY_PREFIX = 'aff:';

/** The store key: scoped to the user (sessions never cross users), then the session, the group and the model. */
export const affinityKey = (userId: number, hint: SessionHint, group: string, model: string) =>
  `${PIN_KEY_PREFIX}${userId}:${hint.digest}:${group.length}:${group}:${model}`;

/** Reads the session's pin and returns the handle that renews or moves it. */
export function openAffinity(
  kv: KeyValueStore,
  ttlSeconds: number,
  key: string,
  now: () => number = () => Math.floor(Date.now() / 1000),
): SessionAffinity {
  const pin = readPin(kv, key);
  return {
    pin,
    remember(channel, usedKey) {
      const keyFp = keyFpOf(channel, usedKey);
      const t = now();
      void pin
        .then((old) => {
          if (old && old.channelId === channel.id && old.keyFp === keyFp && t - old.writtenAt < REFRESH_SECONDS) return;
          return kv.set(key, `${channel.id}:${keyFp}:${t}`, ttlSeconds * 1000);
        })
        .catch(() => undefined);
    },
  };
}

/**
 * The first attempt's channel and key for a pinned session: the pinned channel when it is still a
 * candidate (enabled, with a usable key, serving the model in the group), with the pinned key when
 * that key is still there and enabled (else the channel picks another, which becomes the pin).
 * Undefined when the pin no longer applies: normal routing.
 */
export function pinnedChoice(
  candidates: readonly Candidate[],
  pin: Pin | undefined,
): { cand: Candidate; key?: string } | undefined {
  if (!pin) return undefined;
  const cand = candidates.find((c) => c.channel.id === pin.channelId);
  if (!cand) return undefined;
  const { channel } = cand;
  if (channel.keys.length <= 1 || pin.keyFp === '') return { cand };
  const index = keyFingerprints(channel).indexOf(pin.keyFp);
  if (index < 0 || !enabledKeyIndices(channel.keyInfo).includes(index)) return { cand };
  return { cand, key: channel.keys[index] };
}
