import { PAYMENT_COMPLIANCE_TERMS_VERSION } from '../../../shared/options-console.ts';
import type { Paging } from '../../compat/contract.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { creditPaidOrder } from './credit.service.ts';
import { topUpView } from './topup.view.ts';
import { findTopUpByTradeNo, listTopUps, type TopUpFilter } from './wallet.repo.ts';

/*
 * The wallet and order screens of new-api's 2026 console over Switchyard's one payment path (EasyPay):
 * what the wallet may offer (GET /api/user/topup/info), the order lists, an administrator completing
 * a pending order by hand, and the operator's payment-compliance confirmation.
 */
export function createTopUpOrders(
  infra: Pick<Infra, 'db' | 'bus'>,
  options: OptionsService,
  onlineEnabled: () => boolean,
) {
  const { db, bus } = infra;
  const o = options.get.bind(options);

  const page = async (f: TopUpFilter, paging: Paging) => {
    const { items, total } = await listTopUps(db, f, paging.offset, paging.pageSize);
    return { items: items.map(topUpView), total, page: paging.page, page_size: paging.pageSize };
  };

  return {
    /**
     * What the wallet offers. Switchyard pays through EasyPay only (Stripe, Creem and Waffo are off) and
     * never locks payments or redemption behind the compliance statement, so both stay enabled.
     */
    info() {
      const min = o('MinTopUp');
      const methods = onlineEnabled()
        ? [
            { name: '支付宝', type: 'alipay', color: 'rgba(var(--semi-blue-5), 1)', min_topup: String(min) },
            { name: '微信', type: 'wxpay', color: 'rgba(var(--semi-green-5), 1)', min_topup: String(min) },
          ]
        : [];
      return {
        enable_online_topup: onlineEnabled(),
        enable_stripe_topup: false,
        enable_creem_topup: false,
        enable_waffo_topup: false,
        enable_waffo_pancake_topup: false,
        enable_redemption: true,
        payment_compliance_confirmed: true,
        payment_compliance_terms_version: PAYMENT_COMPLIANCE_TERMS_VERSION,
        waffo_pay_methods: null,
        creem_products: '[]',
        pay_methods: methods,
        min_topup: min,
        stripe_min_topup: 0,
        waffo_min_topup: 0,
        waffo_pancake_min_topup: 0,
        amount_options: o('payment_setting.amount_options'),
        discount: o('payment_setting.amount_discount'),
        topup_link: o('TopUpLink'),
        invite_rebate: { times: 0, percent: o('RebateEnabled') ? o('RebatePercentage') : 0 },
      };
    },

    /** The user's own orders (wallet history), searchable by order number. */
    listOwn: (userId: number, keyword: string, paging: Paging) => page({ userId, keyword }, paging),

    /** Every order (admins), by order number, user, status and creation time. */
    listAll: (f: Omit<TopUpFilter, 'userId'> & { userId?: number }, paging: Paging) => page(f, paging),

    /**
     * An administrator marks a pending order paid: the same crediting as the gateway's notice, so the
     * balance, the order and the log line change together. Completing a paid order again changes nothing.
     */
    async completeByAdmin(tradeNo: string): Promise<void> {
      if (tradeNo.trim() === '') throw badRequest('topup.trade_no_required');
      const order = await findTopUpByTradeNo(db, tradeNo.trim());
      if (!order) throw notFound('topup.order_not_found');
      if (order.status === 'success') return;
      if (order.status !== 'pending') throw badRequest('topup.order_not_pending');
      if (await creditPaidOrder(db, options, order, 'log.admin_topup')) bus.publish('users', String(order.user_id));
    },

    /** The operator confirms new-api's payment-compliance statement; who, when and from where are kept. */
    async confirmCompliance(actorId: number, ip: string, confirmed: boolean) {
      if (!confirmed) throw badRequest('option.compliance_confirm');
      const now = nowSeconds();
      const record: [string, string][] = [
        ['payment_setting.compliance_confirmed', 'true'],
        ['payment_setting.compliance_terms_version', PAYMENT_COMPLIANCE_TERMS_VERSION],
        ['payment_setting.compliance_confirmed_at', String(now)],
        ['payment_setting.compliance_confirmed_by', String(actorId)],
        ['payment_setting.compliance_confirmed_ip', ip],
      ];
      for (const [key, value] of record) await options.update(key, value, { system: true });
      return {
        confirmed: true,
        terms_version: PAYMENT_COMPLIANCE_TERMS_VERSION,
        confirmed_at: now,
        confirmed_by: actorId,
      };
    },
  };
}
