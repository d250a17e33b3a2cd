import type { TopUpRow } from './topup.table.ts';

/** A top-up order as new-api's TopUp JSON (wallet history and the admin's order list). */
export const topUpView = (r: TopUpRow) => ({
  id: Number(r.id),
  user_id: Number(r.user_id),
  amount: Number(r.amount),
  money: Number(r.money),
  trade_no: r.trade_no,
  payment_method: r.payment_method,
  create_time: Number(r.create_time),
  complete_time: Number(r.complete_time ?? 0),
  status: r.status,
});
