import type { KeyValueStore } from '../../cache/kv.ts';
import type { RateLimitStore } from '../../cache/rate-limit.ts';
import { AppError } from '../../errors.ts';

/*
 * Password guessing limits (issue 39), per account and per address. Only wrong passwords (and wrong
 * second-step codes) count, never a success, so a busy office signing in is not slowed down:
 *  - an account (the user when the name is one, else the typed name, so a lock does not tell which names
 *    exist) is locked for password sign-in after ACCOUNT failures, from whatever address they came;
 *  - an address gets a higher limit, so many people behind one NAT, or behind a proxy whose address is
 *    all the server sees without TRUST_PROXY, are not locked out by one person's typos.
 * A lock is a stored end time, so the answer can say exactly when to retry (`Retry-After`, and the
 * minutes in the message); both stores are the shared ones, so several instances share the limits.
 */

export const SIGN_IN_LIMITS = {
  account: { failures: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  ip: { failures: 50, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
} as const;

type Scope = keyof typeof SIGN_IN_LIMITS;

export interface SignInSubject {
  /** The account's key: `id:<user id>` when the name is a user's, else `name:<typed name, lower case>`. */
  account?: string;
  ip: string;
}

export const accountKeyOf = (userId: number | undefined, typed: string) =>
  userId !== undefined ? `id:${userId}` : `name:${typed.trim().toLowerCase()}`;

const lockKey = (scope: Scope, who: string) => `sign-in-lock:${scope}:${who}`;
const failKey = (scope: Scope, who: string) => `sign-in-fail:${scope}:${who}`;

/** The refusal of a locked sign-in: HTTP 429 with the time left, in whole minutes in the message. */
export function signInLocked(retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    'TOO_MANY_REQUESTS',
    'login.too_many_attempts',
    { minutes: Math.max(1, Math.ceil(seconds / 60)) },
    { retryAfterSeconds: seconds },
  );
}

export type SignInLimits = ReturnType<typeof createSignInLimits>;

export function createSignInLimits(d: { rateLimits: RateLimitStore; kv: KeyValueStore }, now = () => Date.now()) {
  const scopes = (s: SignInSubject): [Scope, string][] =>
    s.account === undefined
      ? [['ip', s.ip]]
      : [
          ['account', s.account],
          ['ip', s.ip],
        ];

  return {
    /** Refuses while the account or the address is locked. */
    async assertOpen(s: SignInSubject): Promise<void> {
      for (const [scope, who] of scopes(s)) {
        const until = Number((await d.kv.get(lockKey(scope, who))) ?? 0);
        if (until > now()) throw signInLocked(until - now());
      }
    },

    /** Counts a wrong password or code; the failure that reaches a limit starts that lock. */
    async countFailure(s: SignInSubject): Promise<void> {
      for (const [scope, who] of scopes(s)) {
        const { failures, windowMs, lockMs } = SIGN_IN_LIMITS[scope];
        await d.rateLimits.add(failKey(scope, who), windowMs);
        if ((await d.rateLimits.peek(failKey(scope, who), windowMs)) >= failures)
          await d.kv.set(lockKey(scope, who), String(now() + lockMs), lockMs);
      }
    },
  };
}
