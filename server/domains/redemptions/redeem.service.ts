import { RedemptionStatus } from '../../../shared/constants.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, isAppError, notFound, tooManyRequests } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { messageLogFields } from '../logs/log-message.view.ts';
import { quotaText } from '../topup/quota-text.view.ts';
import { creditQuota, insertTopUpLog } from '../topup/wallet.repo.ts';
import { claimGiftUse, claimSingleUse, findRedemptionByKey, hasUsedGift, insertGiftUse } from './redemptions.repo.ts';

/** Codes are bearer secrets: a user gets 20 wrong codes per 20 minutes (new-api's critical limit), then waits. */
const GUESS_LIMIT = 20;
const GUESS_WINDOW_MS = 20 * 60 * 1000;

export type RedeemService = ReturnType<typeof createRedeemService>;

/**
 * A user turns a code into quota. Everything happens in one transaction whose
 * conditional updates decide every race: a single-use code flips from unused
 * to used exactly once, a gift code counts up only below max_uses, and the
 * unique (code, user) index stops a user from using the same gift twice.
 * Any refusal throws, which rolls the whole transaction back.
 */
export function createRedeemService(infra: Pick<Infra, 'db' | 'bus' | 'rateLimits'>, options: OptionsService) {
  const { db, bus, rateLimits } = infra;

  return {
    async redeem(user: { id: number; username: string }, key: string): Promise<{ quota: number; is_gift: boolean }> {
      if (key === '') throw badRequest('redeem.enter_code');
      const guesses = `redeem-invalid:${user.id}`;
      if ((await rateLimits.peek(guesses, GUESS_WINDOW_MS)) >= GUESS_LIMIT)
        throw tooManyRequests('redeem.too_many_guesses');
      const result = await redeemOnce(user, key).catch(async (err: unknown) => {
        if (isAppError(err) && err.messageCode === 'redeem.invalid') await rateLimits.add(guesses, GUESS_WINDOW_MS);
        throw err;
      });
      bus.publish('users', String(user.id));
      return result;
    },
  };

  function redeemOnce(user: { id: number; username: string }, key: string) {
    return db.transaction().execute(async (trx) => {
      const now = nowSeconds();
      const code = await findRedemptionByKey(trx, key);
      if (!code) throw badRequest('redeem.invalid');
      if (code.status === RedemptionStatus.Used) throw badRequest('redeem.used');
      if (code.status !== RedemptionStatus.Unused) throw badRequest('redeem.invalid');
      if (code.valid_from > 0 && now < code.valid_from) throw badRequest('redeem.not_yet_valid');
      if (code.valid_until > 0 && now >= code.valid_until) throw badRequest('redeem.expired');

      const isGift = code.is_gift === 1;
      if (isGift) {
        if (await hasUsedGift(trx, code.id, user.id)) throw badRequest('redeem.gift_already_used');
        if (!(await claimGiftUse(trx, code.id, user.id, now))) throw badRequest('redeem.used');
        try {
          await insertGiftUse(trx, code.id, user.id, code.quota, now);
        } catch (err) {
          // The same user redeemed in a parallel request that committed first.
          if (isUniqueViolation(err)) throw badRequest('redeem.gift_already_used');
          throw err;
        }
      } else if (!(await claimSingleUse(trx, code.id, user.id, now))) {
        throw badRequest('redeem.used');
      }

      if (!(await creditQuota(trx, user.id, code.quota))) throw notFound('user.not_found');
      const amountText = (quota: number) => quotaText(options, quota);
      await insertTopUpLog(
        trx,
        user,
        code.quota,
        messageLogFields({ code: 'log.redeemed', params: { amount: { quota: code.quota } } }, { amountText }),
      );
      return { quota: code.quota, is_gift: isGift };
    });
  }
}
