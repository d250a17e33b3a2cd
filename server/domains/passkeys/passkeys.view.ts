import type { PasskeyCredentialsTable } from './passkeys.table.ts';
import type { Selectable } from 'kysely';

type PasskeyRow = Selectable<PasskeyCredentialsTable>;

const isoOf = (seconds: number | null) => (seconds === null ? null : new Date(Number(seconds) * 1000).toISOString());

/** GET /api/user/passkey as new-api answers it: `enabled`, and when it was last used (an RFC 3339 time or null). */
export const restPasskeyStatus = (row: PasskeyRow | undefined) =>
  row ? { enabled: true, last_used_at: isoOf(row.last_used_at) } : { enabled: false };

/** The console's view of the user's passkey (times in unix seconds, like every other console answer). */
export const passkeyStatusView = (row: PasskeyRow | undefined) =>
  row
    ? {
        registered: true as const,
        createdAt: Number(row.created_at),
        lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
        transports: JSON.parse(row.transports) as string[],
        synced: row.backup_state === 1,
      }
    : { registered: false as const };
