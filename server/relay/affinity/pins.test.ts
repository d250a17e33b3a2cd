import { describe, expect, it } from 'vitest';
import { createMemoryKv, type KeyValueStore } from '../../cache/kv.ts';
import { type ChannelRow } from '../../db/types.ts';
import { parseChannel } from '../channel-config.ts';
import type { Candidate } from '../routing-cache.ts';
import { affinityKey, openAffinity, pinnedChoice } from './pins.ts';

/* The pin itself: what is stored, when it is written, and when it no longer applies. */

const channel = (id: number, key: string, statuses: Record<number, number> = {}) =>
  parseChannel({
    id,
    type: 1,
    name: `c${id}`,
    key,
    base_url: 'http://127.0.0.1:1',
    channel_info: JSON.stringify({ is_multi_key: true, multi_key_status_list: statuses }),
    setting: '',
    status: 1,
  } as unknown as ChannelRow);
const cand = (c: ReturnType<typeof channel>): Candidate => ({ channel: c, priority: 0, weight: 0 });

/** A memory store that counts writes. */
function countingKv(): KeyValueStore & { writes: number } {
  const kv = createMemoryKv();
  const counted = {
    writes: 0,
    get: kv.get,
    set: (k: string, v: string, ttl: number) => {
      counted.writes++;
      return kv.set(k, v, ttl);
    },
  };
  return counted;
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('a session pin', () => {
  const hint = { kind: 'explicit' as const, digest: 'd'.repeat(32) };

  it('is kept per user, session, group and model', () => {
    const keys = new Set([
      affinityKey(1, hint, 'default', 'm'),
      affinityKey(2, hint, 'default', 'm'),
      affinityKey(1, { ...hint, digest: 'e'.repeat(32) }, 'default', 'm'),
      affinityKey(1, hint, 'vip', 'm'),
      affinityKey(1, hint, 'default', 'm2'),
      // A group name holding the separator cannot pass for another group and model.
      affinityKey(1, hint, 'default:m', ''),
    ]);
    expect(keys.size).toBe(6);
  });

  it('names the channel and the key that answered; an unchanged pin is rewritten once a minute', async () => {
    const kv = countingKv();
    const c = channel(7, 'k0\nk1\nk2');
    let now = 1000;
    const open = () => openAffinity(kv, 3600, 'aff:x', () => now);
    expect(await open().pin).toBeUndefined();
    open().remember(c, 'k2');
    await settle();
    const a = open();
    const pin = await a.pin;
    expect(pin?.channelId).toBe(7);
    expect(pinnedChoice([cand(c)], pin)?.key).toBe('k2');
    a.remember(c, 'k2');
    now += 30;
    open().remember(c, 'k2');
    await settle();
    expect(kv.writes).toBe(1);
    now += 60;
    open().remember(c, 'k2');
    await settle();
    expect(kv.writes).toBe(2);
    // Another key answered: the pin moves at once.
    open().remember(c, 'k1');
    await settle();
    expect(kv.writes).toBe(3);
    expect(pinnedChoice([cand(c)], await open().pin)?.key).toBe('k1');
  });

  it('follows its key through an edit that reorders the keys, and lets go of a disabled key or a gone channel', async () => {
    const kv = createMemoryKv();
    const before = channel(3, 'a\nb\nc');
    openAffinity(kv, 60, 'aff:y').remember(before, 'b');
    await settle();
    const pin = await openAffinity(kv, 60, 'aff:y').pin;
    // The admin reordered the keys: the pin still names b.
    expect(pinnedChoice([cand(channel(3, 'c\nb\na'))], pin)?.key).toBe('b');
    // b disabled (status 2): the channel stays, another key is picked (and becomes the pin).
    const disabled = pinnedChoice([cand(channel(3, 'a\nb\nc', { 1: 2 }))], pin);
    expect(disabled?.cand.channel.id).toBe(3);
    expect(disabled?.key).toBeUndefined();
    // b deleted from the list: the same.
    expect(pinnedChoice([cand(channel(3, 'a\nc'))], pin)?.key).toBeUndefined();
    // The channel is no longer a candidate (disabled, deleted, or no longer serving the model in the group).
    expect(pinnedChoice([cand(channel(4, 'a\nb\nc'))], pin)).toBeUndefined();
  });

  it('is given up on when the store does not answer within 100 ms', async () => {
    const stuck: KeyValueStore = { get: () => new Promise(() => undefined), set: async () => undefined };
    const started = Date.now();
    expect(await openAffinity(stuck, 60, 'aff:z').pin).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
