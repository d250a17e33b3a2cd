import { LogType } from '../../../shared/constants.ts';
import { randomAlphanumeric } from '../../random.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import {
  epayAddresses,
  epayMoneyMatches,
  type EpayParams,
  epayPurchaseForm,
  epaySubmitUrl,
  verifiedEpayNotice,
} from '../topup/epay.rules.ts';
import type { TopUpService } from '../topup/topup.service.ts';
import { grantPlan } from './grant.service.ts';
import { insertSubscriptionLog } from './period.service.ts';
import type { SubscriptionPool } from './pool.service.ts';
import {
  completeOrder,
  countPurchases,
  findOrderByTradeNo,
  findPlan,
  findSubscriber,
  insertOrder,
  insertPaidTopUp,
  takeWalletQuota,
} from './subscriptions.repo.ts';

export type PurchaseService = ReturnType<typeof createPurchaseService>;

/** The Epay types new-api consoles send (the operator's PayMethods) and the two Switchyard's form uses. */
const EPAY_TYPES: Record<string, string> = { alipay: 'alipay', zfb: 'alipay', wxpay: 'wxpay', wx: 'wxpay' };

/**
 * Buying a plan. Online: the same Epay gateway as a top-up: a pending order and a signed form, completed
 * exactly once when the gateway's signed notice (or the browser's signed return) arrives, in one
 * transaction with the subscription and its ledger line. From the balance (Switchyard's console): the
 * plan's price in quota units leaves the wallet by a conditional update in the same transaction that
 * grants the plan, so a short balance grants nothing.
 */
export function createPurchaseService(
  infra: Pick<Infra, 'db' | 'bus' | 'log'>,
  options: OptionsService,
  topup: TopUpService,
  pool: SubscriptionPool,
) {
  const { db, bus, log } = infra;
  const o = options.get.bind(options);

  async function purchasable(userId: number, planId: number) {
    const plan = await findPlan(db, planId);
    if (!plan) throw notFound('subscription.plan_not_found');
    if (plan.enabled !== 1) throw badRequest('subscription.plan_disabled');
    const limit = Number(plan.max_purchase_per_user);
    if (limit > 0 && (await countPurchases(db, userId, Number(plan.id))) >= limit)
      throw badRequest('subscription.purchase_limit');
    return plan;
  }

  async function changed(userId: number, groupMoved: boolean) {
    await pool.reloadUser(userId);
    pool.changed(userId);
    if (groupMoved) bus.publish('users', String(userId));
  }

  /** Completes a verified, successful notice once; true when it is (or already was) complete. */
  async function complete(params: EpayParams): Promise<boolean> {
    const order = await findOrderByTradeNo(db, params.out_trade_no ?? '');
    if (!order) return false;
    if (!epayMoneyMatches(params, Number(order.money))) {
      log.warn({ tradeNo: order.trade_no }, 'subscription epay notice amount does not match the order');
      return false;
    }
    const plan = await findPlan(db, Number(order.plan_id));
    if (!plan) return false;
    const now = nowSeconds();
    const granted = await db.transaction().execute(async (trx) => {
      // A repeated delivery finds the order no longer pending and changes nothing.
      if (!(await completeOrder(trx, Number(order.id), now, JSON.stringify(params)))) return null;
      const payment = { money: Number(order.money), method: order.payment_method };
      const g = await grantPlan(trx, options, Number(order.user_id), plan, 'order', now, payment);
      await insertPaidTopUp(trx, { ...order, user_id: Number(order.user_id), money: payment.money, now });
      return g;
    });
    if (granted) await changed(granted.userId, granted.upgradedTo !== '');
    return true;
  }

  return {
    /** POST /api/subscription/epay/pay: the order and the form the browser posts to the gateway. */
    async epayPay(userId: number, planId: number, method: string, origin: string) {
      if (!topup.onlineEnabled()) throw badRequest('topup.disabled');
      const plan = await purchasable(userId, planId);
      if (Number(plan.price_amount) < 0.01) throw badRequest('subscription.price_too_low');
      const type = EPAY_TYPES[method.trim()];
      if (!type) throw badRequest('subscription.payment_method');
      const { server, callback } = epayAddresses(o('ServerAddress'), o('CustomCallbackAddress'), origin);
      const now = nowSeconds();
      const tradeNo = `SUBUSR${userId}NO${randomAlphanumeric(6)}${now}`;
      const money = Number(plan.price_amount).toFixed(2);
      await insertOrder(db, {
        user_id: userId,
        plan_id: Number(plan.id),
        money: Number(money),
        trade_no: tradeNo,
        payment_method: type,
        create_time: now,
      });
      const data = epayPurchaseForm(
        {
          pid: o('EpayId'),
          type,
          outTradeNo: tradeNo,
          name: `SUB:${plan.title}`,
          money,
          notifyUrl: `${callback}/api/subscription/epay/notify`,
          returnUrl: `${server}/api/subscription/epay/return`,
        },
        o('EpayKey'),
      );
      return { data, url: epaySubmitUrl(o('PayAddress')), trade_no: tradeNo };
    },

    /** The gateway's notice: true = acknowledged (answer `success`), false = refused (`fail`, it retries). */
    async epayNotify(fields: Record<string, unknown>): Promise<boolean> {
      if (!topup.onlineEnabled()) return false;
      const params = verifiedEpayNotice(fields, o('EpayKey'), o('EpayId'));
      if (!params) return false;
      if (params.trade_status !== 'TRADE_SUCCESS') return true;
      return complete(params);
    },

    /**
     * The browser's return from the gateway: signed like the notice, so a successful one completes the
     * order too (idempotently); the answer is where to send the browser in Switchyard's console.
     */
    async epayReturn(fields: Record<string, unknown>, origin: string): Promise<string> {
      const { server } = epayAddresses(o('ServerAddress'), '', origin);
      const to = (pay: string) => `${server}/app/wallet?pay=${pay}`;
      if (!topup.onlineEnabled()) return to('fail');
      const params = verifiedEpayNotice(fields, o('EpayKey'), o('EpayId'));
      if (!params) return to('fail');
      if (params.trade_status !== 'TRADE_SUCCESS') return to('pending');
      return (await complete(params)) ? to('success') : to('fail');
    },

    /** The plan's price in quota units (new-api: price × QuotaPerUnit, rounded up). */
    balancePrice: (price: number) => Math.ceil(price * o('QuotaPerUnit')),

    /** Switchyard's console: pay for a plan from the wallet's balance. */
    async payWithBalance(userId: number, planId: number) {
      const plan = await purchasable(userId, planId);
      const quota = this.balancePrice(Number(plan.price_amount));
      const now = nowSeconds();
      const granted = await db.transaction().execute(async (trx) => {
        const user = await findSubscriber(trx, userId);
        if (!user) throw notFound('user.not_found');
        if (quota > 0 && !(await takeWalletQuota(trx, userId, quota))) throw badRequest('subscription.balance_short');
        const tradeNo = `SUBBALUSR${userId}NO${randomAlphanumeric(6)}${now}`;
        await insertOrder(trx, {
          user_id: userId,
          plan_id: Number(plan.id),
          money: Number(plan.price_amount),
          trade_no: tradeNo,
          payment_method: 'balance',
          status: 'success',
          create_time: now,
          complete_time: now,
          provider_payload: JSON.stringify({ charged_quota: quota }),
        });
        await insertSubscriptionLog(
          trx,
          options,
          user,
          LogType.System,
          quota,
          { code: 'log.subscription_balance_paid', params: { plan: plan.title, amount: { quota } } },
          { plan_id: Number(plan.id), charged_quota: quota },
          now,
        );
        return grantPlan(trx, options, userId, plan, 'balance', now, {
          money: Number(plan.price_amount),
          method: 'balance',
        });
      });
      bus.publish('users', String(userId));
      await changed(userId, granted.upgradedTo !== '');
      return { ...granted, charged_quota: quota };
    },
  };
}
