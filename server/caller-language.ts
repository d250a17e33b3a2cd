import { matchServerText, type MessageLanguage, serverTextIn } from '../shared/server-messages.ts';
import { isAppError } from './errors.ts';

/**
 * The language a caller reads our errors in (relay errors, REST and tRPC refusals): Chinese, the
 * site's language as new-api's, unless the request's Accept-Language prefers English to Chinese
 * (q-values honoured, the earlier tag wins a tie). No header, or only languages we do not speak
 * (`fr`, `*`), is Chinese.
 */
export function callerLanguage(acceptLanguage: string | undefined): MessageLanguage {
  if (!acceptLanguage) return 'zh';
  let best: { lang: MessageLanguage; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [tag, ...params] = part.trim().toLowerCase().split(';');
    const lang = tag.startsWith('zh') ? 'zh' : tag.startsWith('en') ? 'en' : undefined;
    if (!lang) continue;
    const qp = params.find((p) => p.trim().startsWith('q='));
    const q = qp ? Number(qp.trim().slice(2)) : 1;
    if (!(q > 0)) continue;
    if (!best || q > best.q) best = { lang, q };
  }
  return best?.lang ?? 'zh';
}

/**
 * A refusal's words in a language: an AppError's code in that language, a text the registry produced
 * (a schema's or option rule's message) by its code; undefined for other words (an upstream's own).
 */
export function refusalTextIn(lang: MessageLanguage, err: unknown, text: string): string | undefined {
  if (isAppError(err)) return serverTextIn(lang, err.messageCode, err.params);
  const said = matchServerText(text);
  return said ? serverTextIn(lang, said.code, said.params) : undefined;
}
