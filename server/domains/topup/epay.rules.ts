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

/**
 * Where the gateway sends the browser back and where it posts its notice: ServerAddress (else the
 * request's own origin), and CustomCallbackAddress for the notice when the operator set one.
 */
export function epayAddresses(serverAddress: string, customCallback: string, origin: string) {
  const server = (serverAddress || origin).replace(/\/+$/, '');
  return { server, callback: (customCallback || server).replace(/\/+$/, '') };
}

/**
 * A gateway notice's fields when its signature is the merchant's and it names our merchant id;
 * null otherwise. Only string fields take part (a form or a query string gives nothing else).
 */
export function verifiedEpayNotice(fields: Record<string, unknown>, key: string, pid: string): EpayParams | null {
  const params: EpayParams = Object.fromEntries(
    Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  if (!epayVerify(params, key)) return null;
  if (params.pid !== undefined && params.pid !== pid) return null;
  return params;
}

/** The paid amount agrees with the order (the gateway states it with 2 decimals). */
export const epayMoneyMatches = (params: EpayParams, money: number) =>
  params.money === undefined || Math.abs(Number(params.money) - money) <= 0.005;
