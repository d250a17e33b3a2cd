import bcrypt from 'bcryptjs';

/*
 * The rows a running new-api (or one-api) holds, written the way it writes them: bcrypt password hashes (cost
 * 10), 48-character token keys without the sk- prefix, channel keys one per line or a JSON array (Vertex AI),
 * channel_info with its per-key maps indexed by strings from "0", unix seconds everywhere but the 2FA and
 * passkey tables (datetimes), soft-deleted rows (deleted_at set), blanks and NULLs where GORM leaves them.
 * Each row names every column any shape has; the loader keeps those the table of the chosen shape declares.
 */

export type Row = Record<string, unknown>;
export type FixtureKind = 'new-api-2026' | 'new-api-2025' | 'one-api';

/** What the fixture holds that a test checks after an import (the plain secrets new-api only keeps hashed). */
export const NEWAPI_FACTS = {
  password: 'OldPassword1',
  /** alice (id 7): quota, group, the TOTP secret (base32, SHA-1, 6 digits, 30 s) and her backup codes. */
  alice: { id: 7, username: 'alice', quota: 2_500_000, group: 'vip', affHistory: 12_345 },
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  /** Unused backup codes (XXXX-XXXX); the third one is marked used. */
  backupCodes: ['AB12-CD34', 'EF56-GH78'],
  usedBackupCode: 'JK90-LM12',
  /** alice's token key as new-api stores it (clients send it as sk-<key>). */
  tokenKey: 'a'.repeat(24) + 'B'.repeat(24),
  /** The multi-key channel: three keys, the second (index 1) disabled automatically (status 3). */
  multiKeyChannel: { id: 12, keys: ['sk-multi-0', 'sk-multi-1', 'sk-multi-2'], disabledIndex: 1 },
  /** alice's active plan: 5,000,000 total, 1,200,000 used. */
  subscription: { id: 1, userId: 7, planId: 1, total: 5_000_000, used: 1_200_000 },
  siteAddress: 'https://old-gateway.example.com',
} as const;

const T0 = 1_750_000_000; // June 2025, unix seconds
const at = (s: number) => new Date((T0 + s) * 1000);
/** bcrypt at Go's DefaultCost (10), as new-api hashes passwords and backup codes; once per process (it is slow). */
const hashes = new Map<string, string>();
const hash = (plain: string) => hashes.get(plain) ?? hashes.set(plain, bcrypt.hashSync(plain, 10)).get(plain)!;

function users(kind: FixtureKind): Row[] {
  const pw = hash(NEWAPI_FACTS.password);
  const { alice } = NEWAPI_FACTS;
  const base = { email: '', github_id: '', discord_id: '', oidc_id: '', wechat_id: '', telegram_id: '', lark_id: '' };
  const common = { ...base, linux_do_id: '', aff_count: 0, aff_quota: 0, aff_history: 0, inviter_id: 0, setting: '' };
  return [
    {
      ...common,
      id: 1,
      username: 'root',
      password: pw,
      display_name: 'Root User',
      role: 100,
      status: 1,
      access_token: 'r'.repeat(32),
      quota: 100_000_000,
      used_quota: 5_000,
      request_count: 3,
      group: 'default',
      aff_code: 'ROOT',
      created_at: T0,
      last_login_at: T0 + 50,
      auth_version: 1,
    },
    {
      ...common,
      id: alice.id,
      username: alice.username,
      password: pw,
      display_name: 'Alice',
      role: 1,
      status: 1,
      email: 'alice@example.com',
      github_id: '1234567',
      access_token: null,
      quota: alice.quota,
      used_quota: 75_000,
      request_count: 42,
      group: alice.group,
      aff_code: 'ALIC',
      aff_count: 2,
      aff_quota: 500,
      aff_history: alice.affHistory,
      inviter_id: 1,
      setting: kind === 'one-api' ? undefined : '{"notify_type":"email","quota_warning_threshold":500000}',
      remark: 'moved from the old box',
      created_at: T0 + 10,
      last_login_at: T0 + 900,
      auth_version: 3,
    },
    // Soft-deleted in new-api (deleted_at set): kept by an import so ids and logs still match.
    {
      ...common,
      id: 9,
      username: 'bob',
      password: pw,
      display_name: 'Bob',
      role: 1,
      status: 2,
      access_token: null,
      quota: 1_000,
      group: 'default',
      aff_code: 'BOBB',
      deleted_at: kind === 'one-api' ? undefined : at(500),
    },
    // A user new-api's registration leaves mostly blank (NULL setting and remark, empty ids).
    {
      ...common,
      id: 12,
      username: 'carol',
      password: pw,
      display_name: '',
      role: 10,
      status: 1,
      access_token: null,
      quota: 0,
      group: 'default',
      aff_code: 'CARO',
      setting: null,
      remark: null,
      created_at: T0 + 20,
    },
  ];
}

function tokens(kind: FixtureKind): Row[] {
  const oneApi = kind === 'one-api';
  const row = (r: Row): Row => ({
    accessed_time: T0 + 100,
    model_limits_enabled: false,
    model_limits: '',
    allow_ips: '',
    used_quota: 0,
    group: '',
    models: oneApi ? '' : undefined,
    subnet: '',
    cross_group_retry: false,
    ...r,
  });
  return [
    row({
      id: 3,
      user_id: 7,
      key: NEWAPI_FACTS.tokenKey,
      status: 1,
      name: 'alice-key',
      created_time: T0,
      expired_time: -1,
      remain_quota: 400_000,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: 'gpt-4o-mini,gpt-4o',
      models: oneApi ? 'gpt-4o-mini,gpt-4o' : undefined,
      group: 'vip',
      used_quota: 1_000,
    }),
    row({
      id: 4,
      user_id: 7,
      key: 'c'.repeat(48),
      status: 1,
      name: 'deleted-key',
      created_time: T0,
      expired_time: -1,
      remain_quota: 0,
      unlimited_quota: true,
      deleted_at: oneApi ? undefined : at(600),
    }),
    row({
      id: 5,
      user_id: 12,
      key: 'd'.repeat(48),
      status: 3,
      name: 'expired',
      created_time: T0,
      expired_time: T0 + 3600,
      remain_quota: 10,
      unlimited_quota: false,
      allow_ips: null,
      group: null,
      accessed_time: null,
    }),
  ];
}

const vertexKey = (project: string) =>
  JSON.stringify({
    type: 'service_account',
    project_id: project,
    private_key_id: `${project}-kid`,
    private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
    client_email: `svc@${project}.iam.gserviceaccount.com`,
  });

function channels(kind: FixtureKind): Row[] {
  const y2026 = kind === 'new-api-2026';
  const oneApi = kind === 'one-api';
  const m = NEWAPI_FACTS.multiKeyChannel;
  const row = (r: Row): Row => ({
    openai_organization: null,
    test_model: null,
    weight: 0,
    created_time: T0,
    test_time: 0,
    response_time: 0,
    base_url: '',
    other: '',
    balance: 0,
    balance_updated_time: 0,
    group: 'default',
    used_quota: 0,
    model_mapping: oneApi ? '' : null,
    status_code_mapping: '',
    priority: 0,
    auto_ban: 1,
    need_reconcile: 0,
    other_info: '',
    tag: null,
    setting: null,
    param_override: null,
    header_override: null,
    remark: null,
    channel_info: null,
    settings: '',
    config: '',
    system_prompt: null,
    ...r,
  });
  // GORM writes the ChannelInfo struct of a single-key channel too: not multi-key, a null status map.
  const single = JSON.stringify({
    is_multi_key: false,
    multi_key_size: 0,
    multi_key_status_list: null,
    multi_key_polling_index: 0,
    multi_key_mode: '',
  });
  return [
    row({
      id: 11,
      type: oneApi ? 1 : 1,
      key: 'sk-upstream-single',
      status: 1,
      name: 'openai-main',
      weight: 5,
      models: 'gpt-4o-mini,gpt-4o',
      group: 'default,vip',
      priority: 2,
      test_time: T0 + 60,
      response_time: 812,
      balance: 17.25,
      balance_updated_time: T0 + 61,
      used_quota: 75_000,
      model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
      tag: oneApi ? undefined : 'openai',
      setting: '{"force_format":false,"proxy":""}',
      param_override: '{"temperature":0.3}',
      header_override: '{"X-Team":"blue"}',
      remark: 'main account',
      channel_info: y2026 ? single : null,
      settings: '{"azure_responses_version":""}',
      config: oneApi ? '{"region":""}' : undefined,
    }),
    row({
      id: m.id,
      type: 1,
      key: y2026 ? m.keys.join('\n') : m.keys[0],
      status: 1,
      name: 'openai-pool',
      models: 'gpt-4o-mini',
      tag: oneApi ? undefined : 'openai',
      priority: 1,
      channel_info: y2026
        ? JSON.stringify({
            is_multi_key: true,
            multi_key_size: 3,
            multi_key_status_list: { [m.disabledIndex]: 3 },
            multi_key_disabled_reason: { [m.disabledIndex]: 'invalid api key' },
            multi_key_disabled_time: { [m.disabledIndex]: T0 + 700 },
            multi_key_polling_index: 2,
            multi_key_mode: 'polling',
          })
        : null,
    }),
    // Vertex AI: the key is a JSON array of service-account objects (one per key), here two.
    row({
      id: 13,
      type: oneApi ? 42 : 41,
      key: y2026 ? `[${vertexKey('proj-a')},${vertexKey('proj-b')}]` : vertexKey('proj-a'),
      status: 1,
      name: 'vertex',
      models: 'gemini-2.5-pro',
      other: 'us-central1',
      channel_info: y2026
        ? JSON.stringify({
            is_multi_key: true,
            multi_key_size: 2,
            multi_key_status_list: { 0: 2 },
            multi_key_polling_index: 0,
            multi_key_mode: 'random',
          })
        : null,
    }),
    // Disabled by hand (status 2), no models mapping, blank group.
    row({
      id: 14,
      type: 14,
      key: 'sk-ant-disabled',
      status: 2,
      name: 'claude-off',
      models: 'claude-sonnet-4-5',
      group: '',
      auto_ban: 0,
      tag: oneApi ? undefined : '',
    }),
  ];
}

function abilities(kind: FixtureKind): Row[] {
  const tag = kind === 'one-api' ? undefined : 'openai';
  return [
    { group: 'default', model: 'gpt-4o-mini', channel_id: 11, enabled: true, priority: 2, weight: 5, tag },
    { group: 'default', model: 'gpt-4o', channel_id: 11, enabled: true, priority: 2, weight: 5, tag },
    { group: 'vip', model: 'gpt-4o-mini', channel_id: 11, enabled: true, priority: 2, weight: 5, tag },
    { group: 'vip', model: 'gpt-4o', channel_id: 11, enabled: true, priority: 2, weight: 5, tag },
    { group: 'default', model: 'gpt-4o-mini', channel_id: 12, enabled: true, priority: 1, weight: 0, tag },
    { group: 'default', model: 'gemini-2.5-pro', channel_id: 13, enabled: true, priority: 0, weight: 0, tag: null },
    { group: '', model: 'claude-sonnet-4-5', channel_id: 14, enabled: false, priority: 0, weight: 0, tag: '' },
  ];
}

function options(kind: FixtureKind): Row[] {
  const rows = [
    ['SystemName', 'Old Gateway'],
    ['GroupRatio', '{"default":1,"vip":0.8}'],
    ['QuotaPerUnit', '500000'],
    ['ServerAddress', NEWAPI_FACTS.siteAddress],
    ['RegisterEnabled', 'true'],
    ['SomeOptionSwitchyardHasNot', 'kept-in-the-report'],
  ];
  if (kind === 'new-api-2026')
    rows.push(
      ['passkey.enabled', 'true'],
      ['passkey.rp_id', new URL(NEWAPI_FACTS.siteAddress).hostname],
      ['checkin_setting.enabled', 'true'],
      ['checkin_setting.min_quota', '1000'],
      ['checkin_setting.max_quota', '10000'],
    );
  return rows.map(([key, value]) => ({ key, value }));
}

function redemptions(kind: FixtureKind): Row[] {
  const del = kind === 'one-api' ? undefined : null;
  return [
    {
      id: 2,
      user_id: 1,
      key: 'e'.repeat(32),
      status: 1,
      name: 'gift',
      quota: 500_000,
      created_time: T0,
      redeemed_time: 0,
      used_user_id: 0,
      deleted_at: del,
      expired_time: 0,
    },
    {
      id: 3,
      user_id: 1,
      key: 'f'.repeat(32),
      status: 3,
      name: 'gift',
      quota: 100_000,
      created_time: T0,
      redeemed_time: T0 + 300,
      used_user_id: 7,
      deleted_at: del,
      expired_time: T0 + 86_400 * 30,
    },
  ];
}

const topUps: Row[] = [
  {
    id: 1,
    user_id: 7,
    amount: 10,
    money: 73,
    trade_no: 'USR7NOabc1231750000000',
    payment_method: 'alipay',
    create_time: T0,
    complete_time: T0 + 30,
    status: 'success',
  },
  {
    id: 2,
    user_id: 7,
    amount: 5,
    money: 36.5,
    trade_no: 'USR7NOdef4561750000100',
    payment_method: 'wxpay',
    create_time: T0 + 100,
    complete_time: 0,
    status: 'pending',
  },
];

export { T0, at, hash, users, tokens, channels, abilities, options, redemptions, topUps };
