import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { listRoutes } from '../security/routes.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setOption, setupRoot } from '../users.ts';
import { type ConsoleAnswer, LegacyConsole, listen } from './console-client.ts';

/*
 * Every /api route, called with the shapes a Go-decoding client sends (issue #21), against what
 * new-api's Go handlers make of them:
 *
 * - query values go through strconv.Atoi with the error ignored: `NaN`, `undefined`, ``, `1.5`,
 *   `1e3`, `12abc` read as 0, "not given": the answer is the one without the key; of repeated
 *   keys the first counts; keys a handler does not read change nothing;
 * - a JSON body goes through json.Unmarshal: `null` is the empty struct, a field sent as `null`
 *   is the field left out; a body that is not an object, or a field of the wrong JSON type (a
 *   number for a string, letters or "" for a number) does not decode: refused;
 * - a path id Atoi cannot read (abc, NaN, 1.5) is refused with a message.
 *
 * Every refusal is `{success:false, message}` with HTTP 200 (or the status the contract keeps on
 * that route), and leaves the database exactly as it was. Numbers sent as strings, which Go
 * refuses in a body, are accepted where Switchyard's schemas take them: the answer is then the
 * same as for the number, or a clean refusal.
 */

type GoType = 'string' | 'int' | 'float' | 'bool' | 'ints' | 'object';
type Who = 'root' | 'user' | 'public' | 'fresh';

interface Row {
  as: Who;
  /** The concrete path (ids filled in); defaults to the route's own path. */
  path?: () => string;
  /** Query string every call carries (a valid one for the route). */
  baseQuery?: () => Record<string, string>;
  /** Query keys the Go handler reads, and how. */
  query?: Record<string, 'int' | 'string' | 'bool'>;
  /** A body the handler accepts, built fresh per call (unique names). */
  body?: () => Record<string, unknown>;
  /** The Go struct's fields, by JSON type. */
  fields?: Record<string, GoType>;
  /** Answers that legitimately differ between two identical calls (new keys, ids, a run already going): status compared. */
  effects?: boolean;
  /** Statuses this route's refusals keep (api-contract §0.1 exceptions); 200 otherwise. */
  refusal?: number[];
  /** The status kept only when the body does not decode (PUT /api/option/: 400); other refusals are 200. */
  decodeRefusal?: number;
  /** Tables a refused call of this route does write today, with the reason (see the report of issue #21). */
  leaves?: { tables: string[]; why: string };
}

let t: TestApp;
let base: string;
const consoles: Partial<Record<Exclude<Who, 'fresh'>, LegacyConsole>> = {};
const ids = {
  user: 0,
  victim: 0,
  message: 0,
  redemption: 0,
  redemption2: 0,
  token: 0,
  channel: 0,
  plan: 0,
  model: 0,
  vendor: 0,
  prefill: 0,
};
let seq = 0;
const uniq = (p = 'g') => `${p}${Date.now().toString(36).slice(-5)}${(seq++).toString(36)}`;
const MISSING = 999999;
const DEAD_UPSTREAM = 'http://127.0.0.1:9';

const tokenBody = () => ({
  name: 'tok',
  expired_time: -1,
  remain_quota: 0,
  unlimited_quota: true,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
});
const tokenFields: Record<string, GoType> = {
  name: 'string',
  expired_time: 'int',
  remain_quota: 'int',
  unlimited_quota: 'bool',
  model_limits_enabled: 'bool',
  model_limits: 'string',
  allow_ips: 'string',
  group: 'string',
};
const channelFields: Record<string, GoType> = {
  type: 'int',
  name: 'string',
  key: 'string',
  base_url: 'string',
  models: 'string',
  group: 'string',
  priority: 'int',
  weight: 'int',
  tag: 'string',
  test_model: 'string',
  model_mapping: 'string',
};
const logFilters = {
  type: 'int',
  start_timestamp: 'int',
  end_timestamp: 'int',
  token_name: 'string',
  model_name: 'string',
  group: 'string',
} as const;
const page = { p: 'int', page_size: 'int' } as const;
const modelFields: Record<string, GoType> = {
  model_name: 'string',
  description: 'string',
  icon: 'string',
  tags: 'string',
  vendor_id: 'int',
  endpoints: 'string',
  name_rule: 'int',
  status: 'int',
  sync_official: 'int',
};
const vendorFields: Record<string, GoType> = { name: 'string', description: 'string', icon: 'string', status: 'int' };
const prefillFields: Record<string, GoType> = { name: 'string', type: 'string', description: 'string' };

/** new-api's routes (as listRoutes prints them, no trailing slash) and what their handlers read. */
const table: Record<string, Row> = {
  'GET /api/status': { as: 'public' },
  'GET /api/status/test': { as: 'root' },
  'GET /api/setup': { as: 'public' },
  'POST /api/setup': {
    as: 'public',
    refusal: [400],
    body: () => ({
      username: 'admin2',
      password: 'Passw0rd!',
      confirmPassword: 'Passw0rd!',
      SelfUseModeEnabled: false,
      DemoSiteEnabled: false,
    }),
    fields: {
      username: 'string',
      password: 'string',
      confirmPassword: 'string',
      SelfUseModeEnabled: 'bool',
      DemoSiteEnabled: 'bool',
    },
  },
  'GET /api/notice': { as: 'public' },
  'GET /api/about': { as: 'public' },
  'GET /api/home_page_content': { as: 'public' },
  'POST /api/admin/messages': {
    as: 'root',
    effects: true,
    body: () => ({ title: uniq('t'), content: 'hello', format: 'markdown', user_ids: [ids.user] }),
    fields: { title: 'string', content: 'string', format: 'string', user_ids: 'ints' },
  },
  'GET /api/admin/messages': { as: 'root', query: page },
  'GET /api/admin/messages/search': {
    as: 'root',
    query: { ...page, keyword: 'string', start_date: 'string', end_date: 'string' },
  },
  'GET /api/admin/messages/:id': { as: 'root', path: () => `/api/admin/messages/${ids.message}` },
  'PUT /api/admin/messages/:id': {
    as: 'root',
    path: () => `/api/admin/messages/${ids.message}`,
    body: () => ({ title: 'Notice', content: 'edited', format: 'markdown' }),
    fields: { title: 'string', content: 'string', format: 'string' },
  },
  'DELETE /api/admin/messages/:id': { as: 'root', path: () => `/api/admin/messages/${MISSING}` },
  'GET /api/admin/messages/:id/recipients': { as: 'root', path: () => `/api/admin/messages/${ids.message}/recipients` },
  'GET /api/option': { as: 'root' },
  'PUT /api/option': {
    as: 'root',
    // Only a body that does not decode is new-api's HTTP 400 here.
    decodeRefusal: 400,
    body: () => ({ key: 'Notice', value: 'hello' }),
    fields: { key: 'string', value: 'string' },
  },
  'POST /api/option/rest_model_ratio': { as: 'root' },
  // Switchyard's own call (issue 39): clears the shipped prices the operator never changed.
  'POST /api/option/clear_preset_prices': { as: 'root', effects: true },
  'GET /api/oauth/state': { as: 'public', effects: true, query: { aff: 'string' } },
  'GET /api/oauth/email/bind': { as: 'root', query: { email: 'string', code: 'string' } },
  'GET /api/oauth/github': { as: 'public', refusal: [403], query: { code: 'string', state: 'string' } },
  'GET /api/oauth/oidc': { as: 'public', refusal: [403], query: { code: 'string', state: 'string' } },
  'GET /api/oauth/linuxdo': { as: 'public', refusal: [403], query: { code: 'string', state: 'string' } },
  'GET /api/oauth/wechat': { as: 'public', query: { code: 'string', aff: 'string' } },
  'GET /api/oauth/wechat/bind': { as: 'root', query: { code: 'string' } },
  'POST /api/oauth/email/bind': {
    as: 'root',
    body: () => ({ email: 'bind@example.com', code: '000000' }),
    fields: { email: 'string', code: 'string' },
  },
  'POST /api/oauth/wechat/bind': { as: 'root', body: () => ({ code: 'abc' }), fields: { code: 'string' } },
  'GET /api/oauth/:provider': { as: 'public', path: () => '/api/oauth/discord', query: { code: 'string' } },
  'POST /api/auth/external/:provider/jwt/login': { as: 'public', path: () => '/api/auth/external/acme/jwt/login' },
  'POST /api/auth/external/:provider/header/login': {
    as: 'public',
    path: () => '/api/auth/external/acme/header/login',
  },
  'GET /api/ratio_config': { as: 'public' },
  'GET /api/usage/token': { as: 'public', refusal: [401] },
  'POST /api/user/epay/notify': {
    as: 'public',
    body: () => ({ out_trade_no: 'none' }),
    fields: { out_trade_no: 'string' },
  },
  'POST /api/user/stripe/pay': { as: 'user' },
  'POST /api/user/stripe/amount': { as: 'user' },
  'POST /api/user/creem/pay': { as: 'user' },
  'POST /api/user/waffo/pay': { as: 'user' },
  'POST /api/channel/codex/oauth/start': { as: 'root' },
  'POST /api/channel/codex/oauth/complete': { as: 'root' },
  'POST /api/channel/:id/codex/oauth/start': {
    as: 'root',
    path: () => `/api/channel/${ids.channel}/codex/oauth/start`,
  },
  'POST /api/channel/:id/codex/oauth/complete': {
    as: 'root',
    path: () => `/api/channel/${ids.channel}/codex/oauth/complete`,
  },
  'POST /api/channel/:id/codex/refresh': { as: 'root', path: () => `/api/channel/${ids.channel}/codex/refresh` },
  'GET /api/channel/:id/codex/usage': { as: 'root', path: () => `/api/channel/${ids.channel}/codex/usage` },
  'POST /api/channel/ollama/pull': { as: 'root' },
  'POST /api/channel/ollama/pull/stream': { as: 'root' },
  'DELETE /api/channel/ollama/delete': { as: 'root' },
  'GET /api/channel/ollama/version/:id': { as: 'root', path: () => `/api/channel/ollama/version/${ids.channel}` },
  'POST /api/channel/upstream_updates/apply': { as: 'root' },
  'POST /api/channel/upstream_updates/apply_all': { as: 'root' },
  'POST /api/channel/upstream_updates/detect': { as: 'root' },
  'POST /api/channel/upstream_updates/detect_all': { as: 'root' },
  'GET /api/oauth/telegram/login': { as: 'public', query: { id: 'string', hash: 'string' } },
  'GET /api/oauth/telegram/bind': { as: 'root', query: { id: 'string', hash: 'string' } },
  'GET /api/redemption': { as: 'root', query: page },
  'POST /api/redemption': {
    as: 'root',
    effects: true,
    body: () => ({ name: 'batch', count: 1, quota: 100 }),
    fields: { name: 'string', count: 'int', quota: 'int', key: 'string' },
  },
  'PUT /api/redemption': {
    as: 'root',
    body: () => ({ id: ids.redemption, name: 'renamed', quota: 200 }),
    fields: { id: 'int', name: 'string', quota: 'int' },
  },
  'GET /api/redemption/search': { as: 'root', query: { ...page, keyword: 'string' } },
  'GET /api/redemption/count-by-name': { as: 'root', baseQuery: () => ({ name: 'batch' }), query: { name: 'string' } },
  'DELETE /api/redemption/delete-by-name': {
    as: 'root',
    baseQuery: () => ({ name: 'no-such-name' }),
    query: { name: 'string' },
  },
  'DELETE /api/redemption/delete-disabled': { as: 'root' },
  'DELETE /api/redemption/invalid': { as: 'root' },
  'PUT /api/redemption/batch-disable': {
    as: 'root',
    body: () => ({ ids: [ids.redemption2] }),
    fields: { ids: 'ints' },
  },
  'GET /api/redemption/:id': { as: 'root', path: () => `/api/redemption/${ids.redemption}` },
  'DELETE /api/redemption/:id': { as: 'root', path: () => `/api/redemption/${MISSING}` },
  'GET /api/reset_password': {
    as: 'public',
    baseQuery: () => ({ email: `${uniq()}@example.com`, turnstile: '' }),
    query: { email: 'string', turnstile: 'string' },
  },
  'GET /api/user': { as: 'root', query: page },
  'POST /api/user': {
    as: 'root',
    body: () => ({ username: uniq('n'), password: 'Passw0rd!', display_name: 'New' }),
    fields: { username: 'string', password: 'string', display_name: 'string', role: 'int' },
  },
  'PUT /api/user': {
    as: 'root',
    body: () => ({ id: ids.victim, display_name: 'Victim', group: 'default', quota: 1000 }),
    fields: {
      id: 'int',
      username: 'string',
      display_name: 'string',
      password: 'string',
      group: 'string',
      quota: 'int',
    },
  },
  'POST /api/user/topup': { as: 'user', body: () => ({ key: 'no-such-code' }), fields: { key: 'string' } },
  'GET /api/user/token': { as: 'user', effects: true },
  'POST /api/user/amount': {
    as: 'user',
    body: () => ({ amount: 10, top_up_code: '' }),
    fields: { amount: 'int', top_up_code: 'string' },
  },
  'GET /api/user/aff': { as: 'user' },
  'POST /api/user/aff_transfer': { as: 'user', body: () => ({ quota: 500000 }), fields: { quota: 'int' } },
  'POST /api/user/pay': {
    as: 'user',
    body: () => ({ amount: 10, payment_method: 'zfb', top_up_code: '' }),
    fields: { amount: 'int', payment_method: 'string', top_up_code: 'string' },
  },
  'GET /api/user/epay/notify': { as: 'public', query: { out_trade_no: 'string', money: 'string' } },
  // Subscription plans (issue 32)
  'GET /api/subscription/plans': { as: 'user' },
  'GET /api/subscription/self': { as: 'user' },
  'PUT /api/subscription/self/preference': {
    as: 'user',
    body: () => ({ billing_preference: 'wallet_first' }),
    fields: { billing_preference: 'string' },
  },
  'POST /api/subscription/epay/pay': {
    as: 'user',
    body: () => ({ plan_id: ids.plan, payment_method: 'alipay' }),
    fields: { plan_id: 'int', payment_method: 'string' },
  },
  'POST /api/subscription/stripe/pay': { as: 'user', body: () => ({ plan_id: ids.plan }), fields: { plan_id: 'int' } },
  'POST /api/subscription/creem/pay': { as: 'user', body: () => ({ plan_id: ids.plan }), fields: { plan_id: 'int' } },
  'GET /api/subscription/epay/notify': { as: 'public', query: { out_trade_no: 'string', money: 'string' } },
  'POST /api/subscription/epay/notify': {
    as: 'public',
    body: () => ({ out_trade_no: 'none' }),
    fields: { out_trade_no: 'string' },
  },
  'GET /api/subscription/epay/return': { as: 'public', query: { out_trade_no: 'string' } },
  // A redirect whatever comes (Go reads only a form there): the Go-decoding shapes do not apply.
  'POST /api/subscription/epay/return': { as: 'public' },
  'GET /api/subscription/admin/plans': { as: 'root' },
  'POST /api/subscription/admin/plans': {
    as: 'root',
    effects: true,
    body: () => ({ plan: { title: uniq('plan'), price_amount: 1, total_amount: 1000 } }),
    fields: { plan: 'object' },
  },
  'PUT /api/subscription/admin/plans/:id': {
    as: 'root',
    path: () => `/api/subscription/admin/plans/${ids.plan}`,
    body: () => ({ plan: { title: 'fixture plan', price_amount: 1, total_amount: 1000 } }),
    fields: { plan: 'object' },
  },
  'PATCH /api/subscription/admin/plans/:id': {
    as: 'root',
    path: () => `/api/subscription/admin/plans/${ids.plan}`,
    body: () => ({ enabled: true }),
    fields: { enabled: 'bool' },
  },
  'POST /api/subscription/admin/bind': {
    as: 'root',
    effects: true,
    body: () => ({ user_id: ids.victim, plan_id: ids.plan }),
    fields: { user_id: 'int', plan_id: 'int' },
  },
  'GET /api/subscription/admin/users/:id/subscriptions': {
    as: 'root',
    path: () => `/api/subscription/admin/users/${ids.victim}/subscriptions`,
    effects: true,
  },
  'POST /api/subscription/admin/users/:id/subscriptions': {
    as: 'root',
    effects: true,
    path: () => `/api/subscription/admin/users/${ids.victim}/subscriptions`,
    body: () => ({ plan_id: ids.plan }),
    fields: { plan_id: 'int' },
  },
  'POST /api/subscription/admin/user_subscriptions/:id/invalidate': {
    as: 'root',
    path: () => `/api/subscription/admin/user_subscriptions/${MISSING}/invalidate`,
  },
  'DELETE /api/subscription/admin/user_subscriptions/:id': {
    as: 'root',
    path: () => `/api/subscription/admin/user_subscriptions/${MISSING}`,
  },
  'GET /api/user/messages': { as: 'user', query: page },
  'GET /api/user/messages/unread_count': { as: 'user' },
  'GET /api/user/messages/:id': { as: 'user', path: () => `/api/user/messages/${ids.message}` },
  'PUT /api/user/messages/:id/read': { as: 'user', path: () => `/api/user/messages/${ids.message}/read` },
  'GET /api/user/models': { as: 'user' },
  'POST /api/user/manage': {
    as: 'root',
    body: () => ({ id: ids.victim, action: 'enable' }),
    fields: { id: 'int', action: 'string' },
  },
  'POST /api/user/login': {
    as: 'public',
    body: () => ({ username: 'nobody', password: 'Passw0rd!' }),
    fields: { username: 'string', password: 'string' },
  },
  'GET /api/user/logout': { as: 'public' },
  'POST /api/user/register': {
    as: 'public',
    body: () => {
      const password = 'Passw0rd!';
      return { username: uniq('r'), password, password2: password, email: '', verification_code: '', aff_code: '' };
    },
    fields: {
      username: 'string',
      password: 'string',
      password2: 'string',
      email: 'string',
      verification_code: 'string',
      aff_code: 'string',
    },
  },
  'POST /api/user/reset': {
    as: 'public',
    body: () => ({ email: 'nobody@example.com', token: 'x' }),
    fields: { email: 'string', token: 'string' },
  },
  'GET /api/user/groups': { as: 'public' },
  // Passkeys (issue 32): the finish calls take WebAuthn's credential JSON, read by the WebAuthn library, not
  // by Go's struct decoding; with passkeys off (the default) every ceremony call is refused alike.
  'POST /api/user/passkey/login/begin': { as: 'public' },
  'POST /api/user/passkey/login/finish': { as: 'public' },
  'GET /api/user/passkey': { as: 'user' },
  'POST /api/user/passkey/register/begin': { as: 'user' },
  'POST /api/user/passkey/register/finish': { as: 'user' },
  'POST /api/user/passkey/verify/begin': { as: 'user' },
  'POST /api/user/passkey/verify/finish': { as: 'user' },
  'DELETE /api/user/passkey': { as: 'user' },
  'DELETE /api/user/:id/reset_passkey': { as: 'root', path: () => `/api/user/${MISSING}/reset_passkey` },
  // Two-factor (issue 32): the user has none, so the code calls are refused before any code is read.
  'GET /api/user/2fa/status': { as: 'user' },
  'POST /api/user/2fa/setup': { as: 'user', effects: true },
  'POST /api/user/2fa/enable': {
    as: 'user',
    body: () => ({ code: '000000' }),
    fields: { code: 'string' },
    // After a setup, wrong codes count toward the five-minute lock: the fifth call answers "locked".
    effects: true,
    leaves: { tables: ['two_fa'], why: 'after a setup, a wrong code counts toward the five-minute lock' },
  },
  'POST /api/user/2fa/disable': { as: 'user', body: () => ({ code: '000000' }), fields: { code: 'string' } },
  'POST /api/user/2fa/backup_codes': { as: 'user', body: () => ({ code: '000000' }), fields: { code: 'string' } },
  'POST /api/user/login/2fa': { as: 'public', body: () => ({ code: '000000' }), fields: { code: 'string' } },
  'GET /api/user/2fa/stats': { as: 'root' },
  'DELETE /api/user/:id/2fa': { as: 'root', path: () => `/api/user/${MISSING}/2fa` },
  'POST /api/verify': {
    as: 'user',
    body: () => ({ method: '2fa', code: '000000' }),
    fields: { method: 'string', code: 'string' },
  },
  // Without a fresh POST /api/verify, new-api's HTTP 403 with code VERIFICATION_REQUIRED.
  'POST /api/channel/:id/key': { as: 'root', path: () => `/api/channel/${ids.channel}/key`, refusal: [403] },
  'GET /api/user/self': { as: 'user' },
  'PUT /api/user/self': {
    as: 'user',
    body: () => ({ display_name: 'Me' }),
    fields: { username: 'string', display_name: 'string', password: 'string', original_password: 'string' },
  },
  'DELETE /api/user/self': { as: 'fresh' },
  'GET /api/user/self/groups': { as: 'user' },
  'GET /api/user/search': { as: 'root', query: { ...page, keyword: 'string', group: 'string' } },
  'PUT /api/user/setting': {
    as: 'user',
    body: () => ({
      notify_type: 'email',
      quota_warning_threshold: 500000,
      webhook_url: '',
      webhook_secret: '',
      notification_email: '',
      accept_unset_model_ratio_model: false,
    }),
    fields: {
      notify_type: 'string',
      quota_warning_threshold: 'float',
      webhook_url: 'string',
      webhook_secret: 'string',
      notification_email: 'string',
      accept_unset_model_ratio_model: 'bool',
    },
  },
  'POST /api/user/check_in': { as: 'user' },
  'GET /api/user/check_in_status': { as: 'user' },
  // Today's console: wallet, personal and settings calls (issue 32, docs/new-api-contract/misc.md)
  'GET /api/user/checkin': { as: 'user', query: { month: 'string' } },
  'POST /api/user/checkin': { as: 'user', effects: true, query: { turnstile: 'string' } },
  'GET /api/user/topup/info': { as: 'user' },
  'GET /api/user/topup/self': { as: 'user', query: { ...page, keyword: 'string' } },
  'GET /api/user/topup': {
    as: 'root',
    query: { ...page, keyword: 'string', user_id: 'int', status: 'string', start_time: 'int', end_time: 'int' },
  },
  'POST /api/user/topup/complete': {
    as: 'root',
    body: () => ({ trade_no: 'NO-SUCH-ORDER' }),
    fields: { trade_no: 'string' },
  },
  'GET /api/user/oauth/bindings': { as: 'user' },
  'DELETE /api/user/oauth/bindings/:provider_id': { as: 'user', path: () => '/api/user/oauth/bindings/1' },
  'GET /api/user/:id/oauth/bindings': { as: 'root', path: () => `/api/user/${ids.victim}/oauth/bindings` },
  'DELETE /api/user/:id/oauth/bindings/:provider_id': {
    as: 'root',
    path: () => `/api/user/${ids.victim}/oauth/bindings/1`,
  },
  'DELETE /api/user/:id/bindings/:binding_type': {
    as: 'root',
    path: () => `/api/user/${ids.victim}/bindings/telegram`,
  },
  'GET /api/user-agreement': { as: 'public' },
  'GET /api/privacy-policy': { as: 'public' },
  'GET /api/uptime/status': { as: 'public' },
  'GET /api/data/users': { as: 'root', query: { start_timestamp: 'int', end_timestamp: 'int' } },
  'GET /api/option/channel_affinity_cache': { as: 'root' },
  'DELETE /api/option/channel_affinity_cache': {
    as: 'root',
    baseQuery: () => ({ all: 'true' }),
    query: { all: 'bool', rule_name: 'string' },
  },
  'GET /api/log/channel_affinity_usage_cache': {
    as: 'root',
    baseQuery: () => ({ key_fp: 'ab12' }),
    query: { rule_name: 'string', using_group: 'string', key_fp: 'string' },
  },
  'POST /api/option/migrate_console_setting': { as: 'root' },
  'POST /api/option/payment_compliance': {
    as: 'root',
    effects: true,
    body: () => ({ confirmed: true }),
    fields: { confirmed: 'bool' },
  },
  // Import from new-api (issue 42): an empty source is refused; no import starts.
  'GET /api/import/status': { as: 'root' },
  'POST /api/import/start': {
    as: 'root',
    body: () => ({ dsn: '', dryRun: true, logs: false }),
    fields: { dsn: 'string', dryRun: 'bool', logs: 'bool' },
  },
  'POST /api/import/upload': { as: 'root', query: { name: 'string' } },
  'DELETE /api/import/upload': { as: 'root' },
  'GET /api/performance/stats': { as: 'root', effects: true },
  'DELETE /api/performance/disk_cache': { as: 'root' },
  'POST /api/performance/reset_stats': { as: 'root' },
  'POST /api/performance/gc': { as: 'root' },
  'GET /api/performance/logs': { as: 'root' },
  'DELETE /api/performance/logs': { as: 'root' },
  'GET /api/ratio_sync/channels': { as: 'root' },
  'POST /api/ratio_sync/fetch': { as: 'root' },
  'GET /api/custom-oauth-provider': { as: 'root' },
  'POST /api/custom-oauth-provider': { as: 'root' },
  'POST /api/custom-oauth-provider/discovery': { as: 'root' },
  'GET /api/custom-oauth-provider/:id': { as: 'root', path: () => '/api/custom-oauth-provider/1' },
  'PUT /api/custom-oauth-provider/:id': { as: 'root', path: () => '/api/custom-oauth-provider/1' },
  'DELETE /api/custom-oauth-provider/:id': { as: 'root', path: () => '/api/custom-oauth-provider/1' },
  'GET /api/deployments': { as: 'root', query: page },
  'GET /api/deployments/search': { as: 'root', query: page },
  'POST /api/deployments': { as: 'root' },
  'GET /api/deployments/settings': { as: 'root' },
  'POST /api/deployments/settings/test-connection': { as: 'root' },
  'GET /api/deployments/hardware-types': { as: 'root' },
  'GET /api/deployments/locations': { as: 'root' },
  'GET /api/deployments/available-replicas': { as: 'root' },
  'POST /api/deployments/test-connection': { as: 'root' },
  'POST /api/deployments/price-estimation': { as: 'root' },
  'GET /api/deployments/check-name': { as: 'root' },
  'GET /api/deployments/:id': { as: 'root', path: () => '/api/deployments/d1' },
  'PUT /api/deployments/:id': { as: 'root', path: () => '/api/deployments/d1' },
  'DELETE /api/deployments/:id': { as: 'root', path: () => '/api/deployments/d1' },
  'POST /api/deployments/:id/extend': { as: 'root', path: () => '/api/deployments/d1/extend' },
  'GET /api/deployments/:id/logs': { as: 'root', path: () => '/api/deployments/d1/logs' },
  'GET /api/deployments/:id/containers': { as: 'root', path: () => '/api/deployments/d1/containers' },
  'GET /api/deployments/:id/containers/:container_id': {
    as: 'root',
    path: () => '/api/deployments/d1/containers/c1',
  },
  'PUT /api/deployments/:id/name': { as: 'root', path: () => '/api/deployments/d1/name' },
  'GET /api/user/:id': { as: 'root', path: () => `/api/user/${ids.victim}` },
  'DELETE /api/user/:id': { as: 'root', path: () => `/api/user/${MISSING}` },
  'GET /api/log': { as: 'root', query: { ...page, ...logFilters, channel: 'int', username: 'string' } },
  'DELETE /api/log': { as: 'root', baseQuery: () => ({ target_timestamp: '1' }), query: { target_timestamp: 'int' } },
  'GET /api/log/stat': { as: 'root', query: { ...logFilters, channel: 'int', username: 'string' } },
  'GET /api/log/search': { as: 'root', query: { keyword: 'string' } },
  'GET /api/log/self': { as: 'user', query: { ...page, ...logFilters } },
  'GET /api/log/self/stat': { as: 'user', query: logFilters },
  'GET /api/log/self/search': { as: 'user', query: { keyword: 'string' } },
  'GET /api/log/token': { as: 'public', baseQuery: () => ({ key: 'sk-nope' }), query: { key: 'string' } },
  'GET /api/data': {
    as: 'root',
    query: { start_timestamp: 'int', end_timestamp: 'int', username: 'string', default_time: 'string' },
  },
  'GET /api/data/self': {
    as: 'user',
    query: { start_timestamp: 'int', end_timestamp: 'int', default_time: 'string' },
  },
  'GET /api/pricing': { as: 'public' },
  'GET /api/group': { as: 'root' },
  'GET /api/verification': {
    as: 'public',
    baseQuery: () => ({ email: `${uniq()}@example.com`, turnstile: '' }),
    query: { email: 'string', turnstile: 'string' },
  },
  'GET /api/model_mapping': { as: 'root' },
  'PUT /api/model_mapping': { as: 'root', body: () => ({ mapping: {} }), fields: { mapping: 'object' } },
  'POST /api/model_mapping/reload': { as: 'root' },
  'GET /api/models': { as: 'user' },
  // The model marketplace (issue 32): new-api's Model, Vendor and PrefillGroup structs.
  'GET /api/models/search': { as: 'root', query: { ...page, keyword: 'string', vendor: 'string' } },
  'GET /api/models/missing': { as: 'root' },
  'GET /api/models/sync_upstream/preview': { as: 'root' },
  'POST /api/models/sync_upstream': { as: 'root' },
  'GET /api/models/:id': { as: 'root', path: () => `/api/models/${ids.model}` },
  'POST /api/models': { as: 'root', effects: true, body: () => ({ model_name: uniq('m') }), fields: modelFields },
  'PUT /api/models': {
    as: 'root',
    body: () => ({ id: ids.model, model_name: 'meta-renamed', description: 'd' }),
    fields: { id: 'int', ...modelFields },
  },
  'DELETE /api/models/:id': { as: 'root', path: () => `/api/models/${MISSING}` },
  'GET /api/vendors': { as: 'root', query: page },
  'GET /api/vendors/search': { as: 'root', query: { ...page, keyword: 'string' } },
  'GET /api/vendors/:id': { as: 'root', path: () => `/api/vendors/${ids.vendor}` },
  'POST /api/vendors': { as: 'root', effects: true, body: () => ({ name: uniq('v') }), fields: vendorFields },
  'PUT /api/vendors': {
    as: 'root',
    body: () => ({ id: ids.vendor, name: 'vendor-renamed' }),
    fields: { id: 'int', ...vendorFields },
  },
  'DELETE /api/vendors/:id': { as: 'root', path: () => `/api/vendors/${MISSING}` },
  'GET /api/prefill_group': { as: 'root', query: { type: 'string' } },
  'POST /api/prefill_group': {
    as: 'root',
    effects: true,
    body: () => ({ name: uniq('p'), type: 'tag', items: ['a'] }),
    fields: prefillFields,
  },
  'PUT /api/prefill_group': {
    as: 'root',
    body: () => ({ id: ids.prefill, name: 'prefill-renamed', type: 'tag', items: ['b'] }),
    fields: { id: 'int', ...prefillFields },
  },
  'DELETE /api/prefill_group/:id': { as: 'root', path: () => `/api/prefill_group/${MISSING}` },
  'GET /api/mj': {
    as: 'root',
    query: { p: 'int', channel_id: 'int', mj_id: 'string', start_timestamp: 'int', end_timestamp: 'int' },
  },
  'GET /api/mj/self': {
    as: 'user',
    query: { p: 'int', mj_id: 'string', start_timestamp: 'int', end_timestamp: 'int' },
  },
  'GET /api/task': {
    as: 'root',
    query: { p: 'int', channel_id: 'int', task_id: 'string', start_timestamp: 'int', end_timestamp: 'int' },
  },
  'GET /api/task/self': {
    as: 'user',
    query: { p: 'int', task_id: 'string', start_timestamp: 'int', end_timestamp: 'int' },
  },
  'GET /api/token': { as: 'user', query: { p: 'int', size: 'int' } },
  'POST /api/token': { as: 'user', body: tokenBody, fields: tokenFields },
  'PUT /api/token': {
    as: 'user',
    query: { status_only: 'bool' },
    body: () => ({ id: ids.token, ...tokenBody() }),
    fields: { id: 'int', ...tokenFields },
  },
  'GET /api/token/search': { as: 'user', query: { keyword: 'string', token: 'string' } },
  'GET /api/token/:id': { as: 'user', path: () => `/api/token/${ids.token}` },
  'DELETE /api/token/:id': { as: 'user', path: () => `/api/token/${MISSING}` },
  'POST /api/token/:id/key': { as: 'user', path: () => `/api/token/${ids.token}/key` },
  'POST /api/token/batch': { as: 'user', body: () => ({ ids: [MISSING] }), fields: { ids: 'ints' } },
  'POST /api/token/batch/keys': { as: 'user', body: () => ({ ids: [ids.token] }), fields: { ids: 'ints' } },
  'GET /api/channel': { as: 'root', query: { ...page, id_sort: 'bool', tag_mode: 'bool' } },
  'POST /api/channel': {
    as: 'root',
    body: () => ({
      type: 1,
      name: uniq('c'),
      key: 'sk-x',
      base_url: DEAD_UPSTREAM,
      models: 'gpt-4o',
      group: 'default',
    }),
    fields: channelFields,
  },
  'PUT /api/channel': {
    as: 'root',
    body: () => ({ id: ids.channel, name: 'chan-a' }),
    fields: { id: 'int', ...channelFields },
  },
  'GET /api/channel/search': {
    as: 'root',
    query: { keyword: 'string', group: 'string', model: 'string', id_sort: 'bool', tag_mode: 'bool' },
  },
  'GET /api/channel/models': { as: 'root' },
  'GET /api/channel/models_enabled': { as: 'root' },
  'GET /api/channel/test': { as: 'root', effects: true },
  'GET /api/channel/test/:id': {
    as: 'root',
    effects: true,
    path: () => `/api/channel/test/${ids.channel}`,
    query: { model: 'string' },
  },
  'PUT /api/channel/tag': {
    as: 'root',
    body: () => ({
      tag: 'tagb',
      new_tag: null,
      priority: 5,
      weight: null,
      model_mapping: null,
      models: null,
      groups: null,
    }),
    fields: {
      tag: 'string',
      new_tag: 'string',
      priority: 'int',
      weight: 'int',
      model_mapping: 'string',
      models: 'string',
      groups: 'string',
    },
  },
  'GET /api/channel/tag/models': { as: 'root', query: { tag: 'string' } },
  'POST /api/channel/tag/enabled': { as: 'root', body: () => ({ tag: 'tagb' }), fields: { tag: 'string' } },
  'POST /api/channel/tag/disabled': { as: 'root', body: () => ({ tag: 'tagb' }), fields: { tag: 'string' } },
  'GET /api/channel/update_balance': { as: 'root', effects: true },
  'GET /api/channel/update_balance/:id': {
    as: 'root',
    effects: true,
    path: () => `/api/channel/update_balance/${ids.channel}`,
  },
  'POST /api/channel/fetch_models': {
    as: 'root',
    // 502: the upstream's failure (issue 31; new-api answers 500).
    refusal: [400, 500, 502, 503],
    body: () => ({ base_url: DEAD_UPSTREAM, type: 1, key: 'k' }),
    fields: { base_url: 'string', type: 'int', key: 'string' },
  },
  'GET /api/channel/fetch_models/:id': {
    as: 'root',
    refusal: [400, 404, 500, 502, 503],
    path: () => `/api/channel/fetch_models/${ids.channel}`,
  },
  'POST /api/channel/fix': { as: 'root' },
  'POST /api/channel/copy/:id': {
    as: 'root',
    effects: true,
    path: () => `/api/channel/copy/${ids.channel}`,
    query: { suffix: 'string', reset_balance: 'bool' },
  },
  'DELETE /api/channel/disabled': { as: 'root' },
  'POST /api/channel/batch': { as: 'root', body: () => ({ ids: [MISSING] }), fields: { ids: 'ints' } },
  'POST /api/channel/batch/tag': {
    as: 'root',
    body: () => ({ ids: [ids.channel], tag: 'taga' }),
    fields: { ids: 'ints', tag: 'string' },
  },
  'POST /api/channel/multi_key/manage': {
    as: 'root',
    body: () => ({ channel_id: ids.channel, action: 'get_key_status' }),
    fields: { channel_id: 'int', action: 'string', key_index: 'int', page: 'int', page_size: 'int', status: 'int' },
  },
  'GET /api/channel/:id': { as: 'root', path: () => `/api/channel/${ids.channel}` },
  'DELETE /api/channel/:id': { as: 'root', path: () => `/api/channel/${MISSING}` },
};

/** Query values strconv.Atoi cannot read: Go makes them 0, which new-api's handlers treat as "not given". */
const UNPARSABLE = ['NaN', 'undefined', '', '1.5', '1e3', '12abc'];
/** Bodies that are JSON but not an object: json.Unmarshal into a struct fails. */
const NOT_OBJECTS = ['[]', '"text"', '5', 'true'];
/** Path ids strconv.Atoi cannot read. */
const BAD_IDS = ['abc', 'NaN', '1.5', '1e3'];

// ---------------------------------------------------------------------------------------------

/** What a client reads from an answer: envelope, new-api's pay shape, or text. */
interface Outcome {
  status: number;
  ok: boolean | undefined;
  message: string;
  data: unknown;
}

function outcomeOf(res: ConsoleAnswer): Outcome {
  const d = res.data as Record<string, unknown> | string;
  if (res.status >= 300 && res.status < 400) return { status: res.status, ok: true, message: '', data: undefined };
  if (typeof d === 'string')
    return { status: res.status, ok: d === '' ? undefined : d === 'success', message: d, data: d };
  if (typeof d.success === 'boolean')
    return { status: res.status, ok: d.success, message: String(d.message ?? ''), data: d };
  // POST /api/user/pay and /amount: {message:"success"|"error", data}.
  const ok = d.message === 'success';
  return { status: res.status, ok, message: ok ? '' : String(d.data ?? ''), data: d };
}

/** A digest of every table, so a refusal that leaves anything behind is seen. */
async function snapshot(): Promise<Map<string, string>> {
  const db = t.deps.db;
  const names =
    t.deps.dbType === 'postgres'
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema()`.execute(db)
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows;
  // Written by background jobs and channel probes at any time, whatever the request.
  const volatile = new Set([
    'test_time',
    'response_time',
    'test_result',
    'balance',
    'balance_updated_time',
    'used_quota',
  ]);
  const out = new Map<string, string>();
  for (const { name } of names) {
    if (name.startsWith('sqlite_') || name.startsWith('kysely_') || name === 'job_leases') continue;
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    const text = rows
      .map((r) =>
        JSON.stringify(
          Object.entries(r).filter(([k]) => !volatile.has(k)),
          (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v),
        ),
      )
      .sort()
      .join('\n');
    out.set(name, createHash('sha1').update(text).digest('hex'));
  }
  return out;
}

const changedTables = (a: Map<string, string>, b: Map<string, string>) =>
  [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));

async function consoleFor(who: Who): Promise<LegacyConsole> {
  if (who !== 'fresh') return consoles[who]!;
  const u = await createUser(t);
  return new LegacyConsole(base, true).login(u.username, u.password);
}

/** One call: its outcome, checked against the rules every /api answer follows. */
async function call(
  route: string,
  row: Row,
  shape: string,
  req: { path: string; query?: string; body?: unknown; rawBody?: string; undecodable?: boolean },
  problems: string[],
): Promise<Outcome> {
  const method = route.split(' ')[0];
  const url = req.query === undefined || req.query === '' ? req.path : `${req.path}?${req.query}`;
  const c = await consoleFor(row.as);
  const before = await snapshot();
  const res = await c.send(method, url, req.body, req.rawBody);
  const o = outcomeOf(res);
  const where = `${route} [${shape}] ${method} ${url}${req.rawBody ?? (req.body === undefined ? '' : ` ${JSON.stringify(req.body)}`)}`;
  const kept = [...(row.refusal ?? []), ...(req.undecodable && row.decodeRefusal ? [row.decodeRefusal] : [])];
  if (o.status >= 500 && !kept.includes(o.status)) problems.push(`${where}: HTTP ${o.status} ${o.message}`);
  if (o.ok === undefined) problems.push(`${where}: unreadable answer, HTTP ${o.status}`);
  if (o.ok === false) {
    if (o.message.trim() === '') problems.push(`${where}: refused without a message`);
    if (o.status !== 200 && !kept.includes(o.status))
      problems.push(`${where}: refused with HTTP ${o.status}: ${o.message}`);
    const changed = changedTables(before, await snapshot()).filter((n) => !row.leaves?.tables.includes(n));
    if (changed.length > 0) problems.push(`${where}: refused (${o.message}) but wrote ${changed.join(', ')}`);
  }
  return o;
}

/** Two outcomes a client cannot tell apart (of writes: status, success, message; of `effects` routes: status). */
function sameOutcome(route: string, row: Row, a: Outcome, b: Outcome): boolean {
  if (a.status !== b.status) return false;
  if (row.effects) return true;
  if (a.ok !== b.ok || a.message !== b.message) return false;
  return !route.startsWith('GET ') || JSON.stringify(a.data) === JSON.stringify(b.data);
}

const qs = (q: Record<string, string>) =>
  Object.entries(q)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

async function runRow(route: string, row: Row, problems: string[]) {
  const path = row.path?.() ?? route.split(' ')[1].replace(/\/$/, '');
  const expectSame = (shape: string, a: Outcome, b: Outcome) => {
    if (!sameOutcome(route, row, a, b))
      problems.push(
        `${route} [${shape}]: answered ${a.status} ${a.ok} "${a.message}" where the Go-decoded request answers ${b.status} ${b.ok} "${b.message}"`,
      );
  };
  const expectRefused = (shape: string, o: Outcome) => {
    if (o.ok !== false) problems.push(`${route} [${shape}]: accepted what Go does not decode (HTTP ${o.status})`);
  };

  // Query strings: unparsable numbers are "not given", the first of repeated keys counts, unread keys change nothing.
  // Built per call: some carry a unique address (mail routes allow one mail per address per 30 s).
  const baseQuery = () => row.baseQuery?.() ?? {};
  const send = (shape: string, q: Record<string, string>, extra = '') =>
    call(
      route,
      row,
      shape,
      { path, query: [qs({ ...baseQuery(), ...q }), extra].filter(Boolean).join('&'), body: row.body?.() },
      problems,
    );
  const withoutKey = (key: string) => {
    const q = baseQuery();
    delete q[key];
    return call(route, row, `${key} absent`, { path, query: qs(q), body: row.body?.() }, problems);
  };
  for (const [key, kind] of Object.entries(row.query ?? {})) {
    if (kind !== 'int') continue;
    for (const v of UNPARSABLE)
      expectSame(`${key}=${v}`, await send(`${key}=${v}`, { [key]: v }), await withoutKey(key));
    expectSame(
      `${key}=3&${key}=x`,
      await send('repeated key', { [key]: '3' }, `${key}=x`),
      await send(`${key}=3`, { [key]: '3' }),
    );
  }
  // Keys this handler does not read: the answer is the one without them.
  const unread = ['p', 'page_size', 'id', 'start_timestamp'].filter((k) => !(k in (row.query ?? {})));
  const junk = Object.fromEntries(unread.map((k) => [k, 'NaN']));
  expectSame('unread keys', await send('unread keys', junk), await send('base', {}));

  // Path ids.
  if (route.includes(':id'))
    for (const bad of BAD_IDS) {
      const o = await call(
        route,
        row,
        `id=${bad}`,
        { path: path.replace(/\/\d+(?=\/|$)/, `/${bad}`), query: qs(baseQuery()), body: row.body?.() },
        problems,
      );
      expectRefused(`id=${bad}`, o);
    }

  // JSON bodies.
  if (!row.body || !row.fields) return;
  const bodyCall = (shape: string, body: unknown, rawBody?: string, undecodable = false) =>
    call(route, row, shape, { path, query: qs(baseQuery()), body, rawBody, undecodable }, problems);
  expectSame('body null', await bodyCall('body null', undefined, 'null'), await bodyCall('body {}', {}));
  for (const raw of NOT_OBJECTS) {
    const o = await bodyCall(`body ${raw}`, undefined, raw, true);
    expectRefused(`body ${raw}`, o);
    if (o.message !== '无效的参数')
      problems.push(`${route} [body ${raw}]: refused with "${o.message}", not new-api's "无效的参数"`);
  }
  for (const [field, type] of Object.entries(row.fields)) {
    const without = () => {
      const b = row.body!();
      delete b[field];
      return b;
    };
    expectSame(
      `${field}: null`,
      await bodyCall(`${field}: null`, { ...without(), [field]: null }),
      await bodyCall(`${field} absent`, without()),
    );
    const wrong = type === 'string' ? 12345 : type === 'ints' ? 'abc' : type === 'object' ? 'abc' : '12abc';
    expectRefused(
      `${field}: ${JSON.stringify(wrong)}`,
      await bodyCall(`${field} wrong type`, { ...row.body!(), [field]: wrong }, undefined, true),
    );
    if (type === 'int' || type === 'float') {
      expectRefused(`${field}: ""`, await bodyCall(`${field}: ""`, { ...row.body!(), [field]: '' }, undefined, true));
      const b = row.body!();
      if (typeof b[field] === 'number') {
        // Go refuses a number sent as a string; Switchyard takes it where its schema does, as that number.
        const asText = await bodyCall(`${field} as text`, { ...b, [field]: String(b[field]) }, undefined, true);
        if (asText.ok !== false)
          expectSame(`${field} as text`, asText, await bodyCall(`${field} as number`, row.body!()));
      }
    }
    if (type === 'string') await bodyCall(`${field}: ""`, { ...row.body!(), [field]: '' });
  }
}

beforeAll(async () => {
  t = await createTestApp({ trustProxy: true });
  // These are the April 2025 contract's shapes (docs/new-api-contract/lists.md has 2026's).
  await setOption(t, 'ApiCompatContract', '2025-04');
  // The channel tests here reach no upstream; with auto-disable on (the default since issue 39) each would
  // disable the channel and notify root, writes this suite would count against the refusal it checks.
  await setOption(t, 'AutomaticDisableChannelEnabled', 'false');
  base = await listen(t);
  await setupRoot(t);
  consoles.public = new LegacyConsole(base, true);
  consoles.root = await new LegacyConsole(base, true).login(ROOT_USERNAME, ROOT_PASSWORD);
  const u = await createUser(t);
  ids.user = u.id;
  consoles.user = await new LegacyConsole(base, true).login(u.username, u.password);
  ids.victim = (await createUser(t)).id;
  const root = consoles.root;
  const ok = async (r: Promise<ConsoleAnswer>) => {
    const a = await r;
    expect(a.data, JSON.stringify(a.data)).toMatchObject({ success: true });
    return (a.data as { data?: unknown }).data;
  };
  await ok(
    root.post('/api/admin/messages', { title: 'Welcome', content: 'hi', format: 'markdown', user_ids: [ids.user] }),
  );
  ids.message = Number((await t.deps.db.selectFrom('messages').select('id').executeTakeFirstOrThrow()).id);
  await ok(root.post('/api/redemption/', { name: 'fixture', count: 2, quota: 100 }));
  const codes = await t.deps.db.selectFrom('redemptions').select('id').orderBy('id').execute();
  [ids.redemption, ids.redemption2] = codes.map((c) => Number(c.id));
  const plan = await ok(
    root.post('/api/subscription/admin/plans', { plan: { title: 'fixture plan', total_amount: 1000 } }),
  );
  ids.plan = (plan as { plan: { id: number } }).plan.id;
  await ok(consoles.user.post('/api/token/', tokenBody()));
  ids.token = Number((await t.deps.db.selectFrom('tokens').select('id').executeTakeFirstOrThrow()).id);
  await ok(
    root.post('/api/channel/', { type: 1, name: 'chan-a', key: 'sk-a', base_url: DEAD_UPSTREAM, models: 'gpt-4o' }),
  );
  await ok(
    root.post('/api/channel/', {
      type: 1,
      name: 'chan-b',
      key: 'sk-b',
      base_url: DEAD_UPSTREAM,
      models: 'gpt-4o',
      tag: 'tagb',
    }),
  );
  ids.channel = Number(
    (await t.deps.db.selectFrom('channels').select('id').where('name', '=', 'chan-a').executeTakeFirstOrThrow()).id,
  );
  ids.vendor = ((await ok(root.post('/api/vendors/', { name: 'fixture-vendor' }))) as { id: number }).id;
  ids.model = ((await ok(root.post('/api/models/', { model_name: 'fixture-model' }))) as { id: number }).id;
  ids.prefill = (
    (await ok(root.post('/api/prefill_group', { name: 'fixture', type: 'tag', items: [] }))) as { id: number }
  ).id;
});
afterAll(() => t.close());

describe('every /api route decodes the shapes a Go-decoding client sends as new-api does', () => {
  it('has a row for every /api route', () => {
    const routes = listRoutes(t.app.printRoutes({ commonPrefix: false }))
      .filter((r) => r.path.startsWith('/api/'))
      .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`);
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((r) => !(r in table))).toEqual([]);
    expect(Object.keys(table).filter((r) => !routes.includes(r))).toEqual([]);
  });

  const groups = new Map<string, [string, Row][]>();
  for (const [route, row] of Object.entries(table)) {
    const group = route.split(' ')[1].split('/').slice(0, 3).join('/');
    groups.set(group, [...(groups.get(group) ?? []), [route, row]]);
  }
  for (const [group, rows] of groups)
    it(`${group}/*: ${rows.length} route(s)`, async () => {
      const problems: string[] = [];
      for (const [route, row] of rows) await runRow(route, row, problems);
      expect(problems).toEqual([]);
    }, 60_000);
});
