import type { KeyValueStore } from '../../cache/kv.ts';
import { badRequest } from '../../errors.ts';
import { PIN_KEY_PREFIX } from '../../relay/affinity/pins.ts';
import type { OptionsService } from './options.service.ts';

/*
 * new-api's channel-affinity cache screen over Switchyard's session pins (relay/affinity/pins.ts).
 * new-api counts entries per configurable rule; Switchyard pins by agent session with no rules, so
 * every pin is counted in the total and none under a rule name.
 */
export function createAffinityCacheService(kv: KeyValueStore, options: OptionsService) {
  return {
    async stats() {
      return {
        enabled: options.get('channel_affinity_setting.enabled'),
        total: (await kv.countPrefix?.(PIN_KEY_PREFIX)) ?? 0,
        unknown: 0,
        by_rule_name: {},
        // No cap of its own: pins share the store's (memory: 50,000 entries; Redis: none).
        cache_capacity: 0,
        cache_algo: 'TTL',
      };
    },

    /** `all=true` clears every pin (the next turn of each session is routed afresh); a rule name clears none. */
    async clear(q: { all: boolean; ruleName: string }): Promise<{ deleted: number }> {
      if (q.all) return { deleted: (await kv.deletePrefix?.(PIN_KEY_PREFIX)) ?? 0 };
      if (q.ruleName.trim() === '') throw badRequest('affinity.clear_needs_param');
      return { deleted: 0 };
    },

    /** A log row's affinity usage popup: Switchyard keeps no per-key hit counts, so it reads zeros. */
    usage(q: { ruleName: string; usingGroup: string; keyFp: string }) {
      if (q.keyFp.trim() === '') throw badRequest('affinity.key_fp_required');
      return {
        rule_name: q.ruleName,
        using_group: q.usingGroup,
        key_fp: q.keyFp,
        hit: 0,
        total: 0,
        window_seconds: options.get('channel_affinity_setting.default_ttl_seconds'),
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
      };
    },
  };
}
