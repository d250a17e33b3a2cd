import { createHash, timingSafeEqual } from 'node:crypto';

/*
 * EasyPay ("易支付") signing, as every EasyPay-compatible gateway does it:
 * sort the parameters by name, leave out sign, sign_type and empty values,
 * join them as k=v&k=v, append the merchant key and take the lowercase MD5.
 */

export type EpayParams = Record<string, string>;

export function epaySign(params: EpayParams, key: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

/** Constant-time check of a notification's signature. */
export function epayVerify(params: EpayParams, key: string): boolean {
  const given = Buffer.from((params.sign ?? '').toLowerCase());
  const expected = Buffer.from(epaySign(params, key));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The form the browser posts to `<PayAddress>/submit.php`. */
export function epayPurchaseForm(
  args: {
    pid: string;
    type: string;
    outTradeNo: string;
    name: string;
    money: string;
    notifyUrl: string;
    returnUrl: string;
  },
  key: string,
): EpayParams {
  const params: EpayParams = {
    pid: args.pid,
    type: args.type,
    out_trade_no: args.outTradeNo,
    notify_url: args.notifyUrl,
    return_url: args.returnUrl,
    name: args.name,
    money: args.money,
    device: 'pc',
  };
  return { ...params, sign: epaySign(params, key), sign_type: 'MD5' };
}

/** PayAddress may be saved with or without a trailing slash. */
export const epaySubmitUrl = (payAddress: string) => `${payAddress.replace(/\/+$/, '')}/submit.php`;
