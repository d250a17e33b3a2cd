import { affiliateMessages } from './server-messages/affiliate.ts';
import { authMessages } from './server-messages/auth.ts';
import { billingMessages } from './server-messages/billing.ts';
import { channelsMessages } from './server-messages/channels.ts';
import { checkinMessages } from './server-messages/checkin.ts';
import { commonMessages } from './server-messages/common.ts';
import { importerMessages } from './server-messages/importer.ts';
import { logsMessages } from './server-messages/logs.ts';
import { mailMessages } from './server-messages/mail.ts';
import { messagesMessages } from './server-messages/messages.ts';
import { modelMappingMessages } from './server-messages/model-mapping.ts';
import { modelsMessages } from './server-messages/models.ts';
import { netMessages } from './server-messages/net.ts';
import { optionsMessages } from './server-messages/options.ts';
import { passkeysMessages } from './server-messages/passkeys.ts';
import { pricingMessages } from './server-messages/pricing.ts';
import { redemptionsMessages } from './server-messages/redemptions.ts';
import { relayMessages } from './server-messages/relay.ts';
import { subscriptionsMessages } from './server-messages/subscriptions.ts';
import { tokensMessages } from './server-messages/tokens.ts';
import { topupMessages } from './server-messages/topup.ts';
import { twofaMessages } from './server-messages/twofa.ts';
import { unavailableMessages } from './server-messages/unavailable.ts';
import { updatesMessages } from './server-messages/updates.ts';
import { userSettingsMessages } from './server-messages/user-settings.ts';
import { usersMessages } from './server-messages/users.ts';
import { serverMessagesEn } from './server-messages-en.ts';

/*
 * Every message the server's console and REST surfaces can answer with, by a stable code.
 *
 * The text here is new-api's Chinese wording: the REST adapter answers with it unchanged (legacy
 * consoles and scripts read it), and tRPC sends it as the error's message. The console does not show
 * it: it translates the code through Lingui (client/lib/server-messages.ts, catalog
 * `server-messages.po`), whose Chinese entries are these same texts (a unit test checks both
 * catalogs cover every code). `{name}` marks a parameter, filled by `serverText()`.
 *
 * Messages built outside a throw (zod schema messages, option rules) are recognised by their text:
 * `matchServerText()` gives back the code and parameters, so they are translated too. A parameter
 * that is itself one of these texts (a field name, "1000 点额度") is translated by the console.
 *
 * Each area's messages live in their own small registry, `shared/server-messages/<area>.ts`, named
 * after the server domain that raises them (`tokens.ts` for server/domains/tokens/); this file only
 * joins them. They sit in shared/, not beside the domain in server/domains/, because the console
 * imports them too (this index, and each area's English in shared/server-messages-en/<area>.ts, typed
 * by its area's codes), and the console imports shared/ but never server/ (CONTRIBUTING,
 * Client): beside the domain, one server import in a registry would pull server code into the browser
 * bundle, and the role-suffix rule of server/domains/ would need a role for data the server does not
 * own alone. A code belongs to exactly one area;
 * shared/server-messages.test.ts fails when two areas hold the same code (a spread would silently keep
 * the last) or an area file is not joined here.
 */
export const serverMessages = {
  ...commonMessages,
  ...netMessages,
  ...authMessages,
  ...usersMessages,
  ...mailMessages,
  ...passkeysMessages,
  ...twofaMessages,
  ...channelsMessages,
  ...tokensMessages,
  ...billingMessages,
  ...redemptionsMessages,
  ...modelsMessages,
  ...topupMessages,
  ...subscriptionsMessages,
  ...unavailableMessages,
  ...pricingMessages,
  ...affiliateMessages,
  ...checkinMessages,
  ...optionsMessages,
  ...updatesMessages,
  ...messagesMessages,
  ...logsMessages,
  ...modelMappingMessages,
  ...userSettingsMessages,
  ...importerMessages,
  ...relayMessages,
} as const;

export type ServerMessageCode = keyof typeof serverMessages;
export type MessageParams = Readonly<Record<string, string | number>>;

/** A message as the console receives it: the code and what fills its placeholders. */
export interface ServerMessage {
  code: ServerMessageCode;
  params: MessageParams;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** The languages the server words its messages in: Chinese (new-api's, the default) and English. */
export type MessageLanguage = 'zh' | 'en';

const tables: Record<MessageLanguage, Record<ServerMessageCode, string>> = { zh: serverMessages, en: serverMessagesEn };

/**
 * A message's text in one language (the relay's and REST's answer to a caller who prefers English).
 * A parameter that is itself one of these texts (a field name, "1000 点额度") is said in that language
 * too, as the console does (client/lib/server-messages.ts), so no English sentence carries Chinese words.
 */
export function serverTextIn(lang: MessageLanguage, code: ServerMessageCode, params: MessageParams = {}): string {
  return textIn(lang, code, params, 0);
}

function textIn(lang: MessageLanguage, code: ServerMessageCode, params: MessageParams, depth: number): string {
  return tables[lang][code].replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? paramIn(lang, params[name], depth) : whole,
  );
}

function paramIn(lang: MessageLanguage, value: string | number, depth: number): string {
  if (lang === 'zh' || typeof value !== 'string' || depth > 2) return String(value);
  const inner = matchServerText(value);
  return inner ? textIn(lang, inner.code, inner.params, depth + 1) : value;
}

/** The Chinese text of a message (what REST answers by default and what tRPC puts in `message`). */
export const serverText = (code: ServerMessageCode, params: MessageParams = {}): string =>
  serverTextIn('zh', code, params);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Pattern {
  code: ServerMessageCode;
  names: string[];
  regex: RegExp;
  literal: number;
}

let staticTexts: Map<string, ServerMessageCode> | undefined;
let patterns: Pattern[] | undefined;

function index() {
  if (staticTexts && patterns) return { staticTexts, patterns };
  staticTexts = new Map();
  patterns = [];
  for (const [code, text] of Object.entries(serverMessages) as [ServerMessageCode, string][]) {
    if (code === 'common.text' || code === 'log.relay_error') continue;
    const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);
    if (names.length === 0) {
      staticTexts.set(text, code);
      continue;
    }
    const source = text
      .split(PLACEHOLDER)
      .map((part, i) => (i % 2 === 1 ? '([\\s\\S]+?)' : escapeRegExp(part)))
      .join('');
    patterns.push({ code, names, regex: new RegExp(`^${source}$`), literal: text.replace(PLACEHOLDER, '').length });
  }
  // The most specific template first: "上游返回 HTTP {status}：{detail}" before "上游返回 HTTP {status}".
  patterns.sort((a, b) => b.literal - a.literal);
  return { staticTexts, patterns };
}

/**
 * The code and parameters of a text this registry produced, if it did (exact texts first, then the
 * most specific template). Used for messages that travel as text: zod's, option rules', REST answers.
 */
export function matchServerText(text: string): ServerMessage | undefined {
  const { staticTexts, patterns } = index();
  const exact = staticTexts.get(text);
  if (exact) return { code: exact, params: {} };
  for (const p of patterns) {
    const m = p.regex.exec(text);
    if (!m) continue;
    const params: Record<string, string> = {};
    p.names.forEach((name, i) => (params[name] = m[i + 1]));
    return { code: p.code, params };
  }
  return undefined;
}

/** A text as a message: its own code when it is one of ours, else passed on as it came. */
export const messageOfText = (text: string): ServerMessage =>
  matchServerText(text) ?? { code: 'common.text', params: { text } };
