import { type BillingPreference, normalizeBillingPreference } from '../../shared/schemas/subscriptions.ts';
import type { UserRow } from '../db/types.ts';

/** The user settings the relay reads (user.setting JSON, spec accounts §3). */
export interface RelayUser {
  id: number;
  username: string;
  role: number;
  status: number;
  group: string;
  acceptUnsetModels: boolean;
  showIpInLogs: boolean;
  /** Which pool pays first when the user has a subscription (issue 32). */
  billingPreference: BillingPreference;
  /** Balance when the user was loaded (cached: may be seconds old); only for the reservation shortcut. */
  quotaSnapshot: number;
}

/** The token part of a relayed call; absent for the console playground (token_id 0). */
export interface RelayToken {
  id: number;
  name: string;
  /** The key as stored (no `sk-`, no channel suffix): what the auth cache is keyed by. A secret: never logged. */
  cacheKey: string;
  unlimited: boolean;
  modelLimits: ReadonlySet<string> | null;
  rateLimit: { period: number; count: number; success: number } | null;
}

/** Who is calling and where their usage is billed; the output of authentication. */
export interface RelayPrincipal {
  user: RelayUser;
  token: RelayToken | null;
  /** The group that prices and routes the call (the token's, else the user's). */
  group: string;
  /** `sk-KEY-CHANNELID` (admins only): this channel, never retried elsewhere. */
  pinnedChannelId: number | null;
}

export function toRelayUser(
  row: Pick<UserRow, 'id' | 'username' | 'role' | 'status' | 'group' | 'setting' | 'quota'>,
): RelayUser {
  let setting: Record<string, unknown> = {};
  try {
    const v: unknown = row.setting ? JSON.parse(row.setting) : {};
    if (v && typeof v === 'object') setting = v as Record<string, unknown>;
  } catch {
    // An unparsable setting is treated as empty (defaults), not as an error for the caller.
  }
  return {
    id: Number(row.id),
    username: row.username,
    role: row.role,
    status: row.status,
    group: row.group,
    acceptUnsetModels: setting.accept_unset_model_ratio_model === true,
    showIpInLogs: setting.show_ip_in_logs === true,
    billingPreference: normalizeBillingPreference(setting.billing_preference),
    quotaSnapshot: Number(row.quota),
  };
}

/** Who pays for a call: the user (their billing preference choosing wallet or subscription) and the token. */
export const payerOf = (p: RelayPrincipal) => ({
  userId: p.user.id,
  tokenId: p.token?.id ?? 0,
  unlimitedToken: p.token?.unlimited ?? true,
  preference: p.user.billingPreference,
});
