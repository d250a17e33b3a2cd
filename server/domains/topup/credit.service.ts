import type { ServerMessageCode } from '../../../shared/server-messages.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { notFound } from '../../errors.ts';
import { messageLogFields } from '../logs/log-message.view.ts';
import type { OptionsService } from '../options/options.service.ts';
import { quotaText } from './quota-text.view.ts';
import { completeTopUp, creditQuota, findWalletUser, type findTopUpByTradeNo, insertTopUpLog } from './wallet.repo.ts';

type Order = NonNullable<Awaited<ReturnType<typeof findTopUpByTradeNo>>>;

/**
 * Marks a pending order paid and credits its quota, with the top-up log line, in one transaction:
 * the gateway's notification and an administrator's manual completion both come here. Only the call
 * that flips the order from pending credits it; a repeated or concurrent one changes nothing (false).
 */
export async function creditPaidOrder(
  db: Db,
  options: OptionsService,
  order: Order,
  logCode: Extract<ServerMessageCode, `log.${string}`>,
): Promise<boolean> {
  const quota = Math.round(order.amount * options.get('QuotaPerUnit'));
  return db.transaction().execute(async (trx) => {
    if (!(await completeTopUp(trx, order.id, nowSeconds()))) return false;
    const user = await findWalletUser(trx, order.user_id);
    if (!user || !(await creditQuota(trx, user.id, quota))) throw notFound('user.not_found');
    await insertTopUpLog(
      trx,
      user,
      quota,
      messageLogFields(
        { code: logCode, params: { amount: { quota }, money: order.money.toFixed(2) } },
        { amountText: (q) => quotaText(options, q) },
      ),
    );
    return true;
  });
}
