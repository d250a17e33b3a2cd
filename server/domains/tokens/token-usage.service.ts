import type { Db } from '../../db/types.ts';
import { notFound } from '../../errors.ts';
import { findTokenByKey } from './tokens.repo.ts';

/**
 * What a key's holder may read about the key itself (new-api's GET /api/usage/token/): granted,
 * used and left, its model limits and expiry. Anyone holding the key may ask, so nothing about
 * the owner is in it.
 */
export function createTokenUsageService(db: Db) {
  return {
    async usageOfKey(key: string) {
      const token = key === '' ? undefined : await findTokenByKey(db, key);
      if (!token) throw notFound('token.not_found');
      const limits = token.model_limits.split(',').filter((m) => m !== '');
      return {
        object: 'token_usage',
        name: token.name,
        total_granted: token.remain_quota + token.used_quota,
        total_used: token.used_quota,
        total_available: token.remain_quota,
        unlimited_quota: token.unlimited_quota === 1,
        model_limits: Object.fromEntries(limits.map((m) => [m, true])),
        model_limits_enabled: token.model_limits_enabled === 1,
        // new-api stores "never" as -1 and reports it as 0.
        expires_at: token.expired_time === -1 ? 0 : token.expired_time,
      };
    },
  };
}
