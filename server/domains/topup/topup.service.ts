import { randomAlphanumeric } from '../../random.ts';
import { optionRegistry } from '../../../shared/options.ts';
import type { PayInput, TopUpAmountInput } from '../../../shared/schemas/wallet.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import {
  epayAddresses,
  epayMoneyMatches,
  epayPurchaseForm,
  type EpayParams,
  epaySubmitUrl,
  verifiedEpayNotice,
} from './epay.rules.ts';
import { creditPaidOrder } from './credit.service.ts';
import { createTopUpOrders } from './topup-orders.service.ts';
import { topUpView } from './topup.view.ts';
import { findTopUpByTradeNo, findWalletUser, insertTopUp, listTopUps } from './wallet.repo.ts';

export type TopUpService = ReturnType<typeof createTopUpService>;

const EPAY_TYPE = { zfb: 'alipay', wx: 'wxpay', alipay: 'alipay', wxpay: 'wxpay' } as const;

interface Payer {
  id: number;
  group: string;
}

/**
 * Online top-up through an EasyPay gateway: quote a price, open a pending order
 * and hand the browser a signed form, then credit the order exactly once when
 * the gateway's signed notification arrives (it may arrive many times).
 */
export function createTopUpService(infra: Pick<Infra, 'db' | 'bus' | 'log'>, options: OptionsService) {
  const { db, bus, log } = infra;
  const o = options.get.bind(options);

  /** new-api's amount unit: dollars when the site shows money, quota units otherwise. */
  const inQuotaUnits = () => !o('DisplayInCurrencyEnabled');

  /** Whole dollars bought. In quota units a remainder below one dollar is neither charged nor credited. */
  const dollarsOf = (amount: number) => (inQuotaUnits() ? Math.floor(amount / o('QuotaPerUnit')) : amount);

  const minTopUp = () => (inQuotaUnits() ? Math.floor(o('MinTopUp') * o('QuotaPerUnit')) : o('MinTopUp'));

  function priceOf(amount: number, group: string): number {
    if (amount < minTopUp()) throw badRequest('topup.amount_min', { min: minTopUp() });
    const ratio = o('TopupGroupRatio')[group] || 1;
    const price = dollarsOf(amount) * o('Price') * ratio;
    if (price < 0.01) throw badRequest('topup.price_too_low');
    return price;
  }

  /** PayReturnUrl: a path on this site, or a full address (a console served elsewhere); empty is our own page. */
  const returnUrl = (server: string) => {
    const target = o('PayReturnUrl') || optionRegistry.PayReturnUrl.default;
    return target.startsWith('/') ? `${server}${target}` : target;
  };

  const onlineEnabled = () => o('PayAddress') !== '' && o('EpayId') !== '' && o('EpayKey') !== '';

  return {
    onlineEnabled,
    ...createTopUpOrders(infra, options, onlineEnabled),

    /** PayReturnUrl as an address, for gateways whose return the browser follows to the console. */
    returnUrl,

    /** The payable price, 2 decimals, as the console shows it. */
    quote(user: Payer, input: TopUpAmountInput): string {
      return priceOf(input.amount, user.group).toFixed(2);
    },

    /** `origin` is this request's own address, used when ServerAddress is not configured. */
    async pay(user: Payer, input: PayInput, origin: string): Promise<{ data: EpayParams; url: string }> {
      if (!onlineEnabled()) throw badRequest('topup.disabled');
      const money = priceOf(input.amount, user.group).toFixed(2);
      const { server, callback } = epayAddresses(o('ServerAddress'), o('CustomCallbackAddress'), origin);
      const tradeNo = `USR${user.id}NO${randomAlphanumeric(6)}${nowSeconds()}`;
      await insertTopUp(db, {
        user_id: user.id,
        amount: dollarsOf(input.amount),
        money: Number(money),
        trade_no: tradeNo,
        payment_method: EPAY_TYPE[input.payment_method],
        create_time: nowSeconds(),
      });
      const data = epayPurchaseForm(
        {
          pid: o('EpayId'),
          type: EPAY_TYPE[input.payment_method],
          outTradeNo: tradeNo,
          name: `TUC${input.amount}`,
          money,
          notifyUrl: `${callback}/api/user/epay/notify`,
          returnUrl: returnUrl(server),
        },
        o('EpayKey'),
      );
      return { data, url: epaySubmitUrl(o('PayAddress')) };
    },

    /**
     * The gateway's notification. True means "acknowledged" (answer `success`, the
     * gateway stops resending); false means refused (bad signature, unknown order,
     * wrong merchant or amount).
     */
    async notify(query: Record<string, unknown>): Promise<boolean> {
      if (!onlineEnabled()) return false;
      const params = verifiedEpayNotice(query, o('EpayKey'), o('EpayId'));
      if (!params) return false;
      if (params.trade_status !== 'TRADE_SUCCESS') return true;
      const order = await findTopUpByTradeNo(db, params.out_trade_no ?? '');
      if (!order) return false;
      if (!epayMoneyMatches(params, order.money)) {
        log.warn({ tradeNo: order.trade_no }, 'epay notify amount does not match the order');
        return false;
      }
      const credited = await creditPaidOrder(db, options, order, 'log.online_topup');
      if (credited) bus.publish('users', String(order.user_id));
      return true;
    },

    async balance(userId: number) {
      const user = await findWalletUser(db, userId);
      if (!user) throw notFound('user.not_found');
      return { quota: user.quota, used_quota: user.used_quota, request_count: user.request_count };
    },

    async listTopUps(userId: number, page: number, pageSize: number) {
      const { items, total } = await listTopUps(db, { userId }, (page - 1) * pageSize, pageSize);
      return { items: items.map(topUpView), total, page, page_size: pageSize };
    },
  };
}
