import { RedemptionStatus } from '../../../shared/constants.ts';
import { MSG_ENTER_CODE } from '../../../shared/schemas/redemptions.ts';
import type { Infra } from '../../context.ts';
import { badRequest, isAppError, notFound, tooManyRequests } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { quotaText } from '../topup/quota-text.ts';
import { creditQuota, insertTopUpLog } from '../topup/wallet.repo.ts';
import {
  claimGiftUse,
  claimSingleUse,
  findRedemptionByKey,
  hasUsedGift,
  insertGiftUse,
  isUniqueViolation,
  nowSeconds,
} from './redemptions.repo.ts';

export const MSG_INVALID_CODE = '无效的兑换码';
export const MSG_USED_CODE = '该兑换码已被使用';
export const MSG_GIFT_ALREADY_USED = '您已经使用过该兑换码';

export const MSG_TOO_MANY_GUESSES = '兑换码错误次数过多，请稍后再试';

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
      if (key === '') throw badRequest(MSG_ENTER_CODE);
      const guesses = `redeem-invalid:${user.id}`;
      if ((await rateLimits.peek(guesses, GUESS_WINDOW_MS)) >= GUESS_LIMIT) throw tooManyRequests(MSG_TOO_MANY_GUESSES);
      const result = await redeemOnce(user, key).catch(async (err: unknown) => {
        if (isAppError(err) && err.message === MSG_INVALID_CODE) await rateLimits.add(guesses, GUESS_WINDOW_MS);
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
      if (!code) throw badRequest(MSG_INVALID_CODE);
      if (code.status === RedemptionStatus.Used) throw badRequest(MSG_USED_CODE);
      if (code.status !== RedemptionStatus.Unused) throw badRequest(MSG_INVALID_CODE);
      if (code.valid_from > 0 && now < code.valid_from) throw badRequest('该兑换码尚未生效');
      if (code.valid_until > 0 && now >= code.valid_until) throw badRequest('该兑换码已过期');

      const isGift = code.is_gift === 1;
      if (isGift) {
        if (await hasUsedGift(trx, code.id, user.id)) throw badRequest(MSG_GIFT_ALREADY_USED);
        if (!(await claimGiftUse(trx, code.id, user.id, now))) throw badRequest(MSG_USED_CODE);
        try {
          await insertGiftUse(trx, code.id, user.id, code.quota, now);
        } catch (err) {
          // The same user redeemed in a parallel request that committed first.
          if (isUniqueViolation(err)) throw badRequest(MSG_GIFT_ALREADY_USED);
          throw err;
        }
      } else if (!(await claimSingleUse(trx, code.id, user.id, now))) {
        throw badRequest(MSG_USED_CODE);
      }

      if (!(await creditQuota(trx, user.id, code.quota))) throw notFound('用户不存在');
      await insertTopUpLog(trx, user, code.quota, `通过兑换码充值 ${quotaText(options, code.quota)}`);
      return { quota: code.quota, is_gift: isGift };
    });
  }
}
