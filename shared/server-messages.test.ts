import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  matchServerText,
  messageOfText,
  serverMessages,
  type ServerMessageCode,
  serverText,
} from './server-messages.ts';
import { serverMessagesEn } from './server-messages-en.ts';

const root = path.resolve(import.meta.dirname, '..');
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

/**
 * Chinese texts in server code that are not console messages, with why: what the server writes
 * for people outside the console (e-mails, webhooks), or data (default option values, names).
 */
const NOT_CONSOLE_MESSAGES: Record<string, string[]> = {
  // E-mails go out in the site's language, new-api's wording.
  'server/domains/auth/mail-flows.service.ts': [
    '{}邮箱验证邮件',
    '<p>您好，你正在进行{}邮箱验证',
    '{}密码重置',
    '<p>您好，你正在进行{}密码重置',
  ],
  // A quota warning sent by e-mail or webhook (content, like an admin's message). Inbox notices are
  // registry messages (notice.*), stored beside their words for the console.
  'server/domains/notifications/quota-warning.service.ts': ['您的额度即将用尽', '{}：{}'],
  // Data: default option values, a copied channel's name suffix, a new user's token name.
  // ...and `${JSON_INVALID}：${issue}`, which reads as option.json_invalid_detail.
  'shared/options.ts': ['{}：{}'],
  'server/domains/channels/channels.rest.ts': ['_复制'],
  'server/domains/channels/channels.router.ts': ['_复制'],
  'server/domains/auth/signup.service.ts': ['{}的初始令牌'],
  // Log lines state amounts as new-api's LogQuota does ("＄1.500000 额度"): data, like its other log text.
  'server/domains/topup/quota-text.view.ts': ['＄', '{}{} 额度'],
  // Root's display name on a Chinese install (data, like a new user's token name).
  'server/domains/users/setup.service.ts': ['超级管理员'],
  // EasyPay's two methods as new-api names them in the wallet's pay_methods (data, like its PayMethods option).
  'server/domains/topup/topup-orders.service.ts': ['支付宝', '微信'],
  // new-api's answers to POST /api/channel/multi_key/manage, read by REST clients only; the console's
  // key list (tRPC channels.manageKeys) words its own success notes.
  'server/domains/channels/multi-key.view.ts': [
    '密钥已禁用',
    '密钥已启用',
    '已启用 {} 个密钥',
    '已禁用 {} 个密钥',
    '密钥已删除',
    '已删除 {} 个自动禁用的密钥',
  ],
  // The relay's words for a failed upstream connection, to API callers in their language (relay errors
  // are not console messages; the console's own are registry messages net.*).
  'server/net-failure.ts': [
    '连接被拒绝',
    '找不到主机',
    '响应超时',
    '连接意外断开',
    '证书未通过验证',
    '网络不可达',
    '地址无效',
    '请求失败',
    '{}（{}）',
  ],
  // The demo upstream's made-up answer (model output, in the asker's language).
  'server/demo/demo-upstream.ts': ['这是 Switchyard 的演示渠道'],
};

/** Every string literal with Chinese in it, template holes written `{}`. */
function chineseLiterals(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    let text: string | undefined;
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) text = n.text;
    else if (ts.isTemplateExpression(n))
      text = n.head.text + n.templateSpans.map((s) => `{}${s.literal.text}`).join('');
    if (text !== undefined && CJK.test(text)) found.push(text);
    else ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

const shapes = new Set(Object.values(serverMessages).map((t: string) => t.replace(/\{\w+\}/g, '{}')));

/** Each area's registry (shared/server-messages/<area>.ts) as its file declares it, before the join. */
async function areaRegistries(): Promise<Record<string, Record<string, string>>> {
  const dir = path.join(root, 'shared/server-messages');
  const areas: Record<string, Record<string, string>> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const exports = (await import(path.join(dir, file))) as Record<string, Record<string, string>>;
    areas[file] = Object.assign({}, ...Object.values(exports));
  }
  return areas;
}

describe('server message registries by area', () => {
  // The index joins the areas with spreads, which keep the last of two equal keys without a word: a
  // code added to a second area would silently change what the first area's callers answer.
  it('give every code to exactly one area', async () => {
    const owners = new Map<string, string[]>();
    for (const [file, messages] of Object.entries(await areaRegistries()))
      for (const code of Object.keys(messages)) owners.set(code, [...(owners.get(code) ?? []), file]);
    const shared = [...owners].filter(([, files]) => files.length > 1).map(([code, files]) => `${code}: ${files}`);
    expect(shared).toEqual([]);
  });

  it('are all joined into serverMessages, each text as its area wrote it', async () => {
    const joined: Record<string, string> = {};
    for (const messages of Object.values(await areaRegistries())) Object.assign(joined, messages);
    expect(serverMessages).toEqual(joined);
  });
});

describe('server messages', () => {
  it('has one code per text, so a text tells its code', () => {
    const texts = Object.values(serverMessages);
    expect(texts.length).toBe(new Set(texts).size);
  });

  it('fills parameters and reads them back from the text', () => {
    for (const code of Object.keys(serverMessages) as ServerMessageCode[]) {
      // Texts that are nothing but their parameters are never read back (they would match any text).
      if (code === 'common.text' || code === 'log.relay_error') continue;
      const names = [...serverMessages[code].matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const params = Object.fromEntries(names.map((n, i) => [n, `v${i}x`]));
      const text = serverText(code, params);
      expect(text).not.toMatch(/\{\w+\}/);
      expect(matchServerText(text), text).toEqual({ code, params });
    }
    expect(messageOfText('upstream said no')).toEqual({ code: 'common.text', params: { text: 'upstream said no' } });
    expect(matchServerText('上游连接失败：ECONNREFUSED')).toBeUndefined();
    expect(matchServerText('上游返回 HTTP 500：boom')).toEqual({
      code: 'channel.upstream_status_detail',
      params: { status: '500', detail: 'boom' },
    });
  });

  // Issue 45: a reader gets one language. A Chinese text carries no English gloss ("请稍后再试 (try later)");
  // product and field names (GitHub Client Id, max_tokens) are not glosses. An English text has no Chinese.
  it('says each message in one language', () => {
    const gloss = /[(（]\s*[a-z]+(?:[\s,]+[a-z]+)+\s*[)）]/;
    expect(Object.entries(serverMessages).filter(([, text]) => gloss.test(text))).toEqual([]);
    expect(Object.entries(serverMessagesEn).filter(([, text]) => CJK.test(text))).toEqual([]);
  });

  // Words for people (issue 31): no markdown code marks shown literally, no "code(s)"-style plurals, no
  // framework or network error codes. (Notices are markdown on purpose: bold and links, never backticks.)
  it('reads as written for people: no backticks, "(s)" plurals or error codes', () => {
    const unfit = Object.entries(serverMessages).filter(([, text]) =>
      /`|\w\(s\)|\b(?:FST_|ERR_|UND_ERR_)[A-Z_]+|\bE(?:CONN[A-Z]+|NOTFOUND|TIMEDOUT)\b/.test(text),
    );
    expect(unfit).toEqual([]);
  });

  // Every Chinese text the console can receive from the server must be one of the registry's, so it has a
  // code, and the console has it in both catalogs (client/lib/server-messages.test.ts). The relay is not
  // here: it answers API callers in English or Chinese itself (relay/errors.ts refusal()).
  it('every Chinese text in server and shared code is a registry message (or a listed non-message)', () => {
    const files = execFileSync('git', ['ls-files', 'server', 'shared'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('server/relay/'))
      .filter((f) => f !== 'shared/server-messages.ts' && !f.startsWith('shared/server-messages/'));
    const stray: string[] = [];
    for (const file of files)
      for (const text of chineseLiterals(file)) {
        if (shapes.has(text) || (!text.includes('{}') && matchServerText(text))) continue;
        if ((NOT_CONSOLE_MESSAGES[file] ?? []).some((allowed) => text.startsWith(allowed))) continue;
        stray.push(`${file}: ${JSON.stringify(text)}`);
      }
    expect(stray).toEqual([]);
  });
});
