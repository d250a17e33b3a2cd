import { ChannelType } from '../../../../shared/channel-types.ts';
import { type FetchModelsInput, MESSAGES } from '../../../../shared/schemas/channels.ts';
import { AppError, badRequest } from '../../../errors.ts';
import { baseUrlOf, firstKeyOf, upstreamErrorText, upstreamJson } from '../probe-http.ts';
import { type ChannelsCtx, getChannelOrThrow } from './context.ts';

/** Upstream failures answer 500, as new-api's fetch_models does. */
const upstreamFailure = (text: string) => new AppError('INTERNAL', `获取模型列表失败：${text}`);

/** Lists the upstream's model ids: OpenAI-style `/v1/models`, or Gemini's `/v1beta/models?key=`. */
async function listUpstreamModels(type: number, baseUrl: string, key: string): Promise<string[]> {
  const gemini = type === ChannelType.Gemini;
  const url = gemini ? `${baseUrl}/v1beta/models?key=${encodeURIComponent(key)}` : `${baseUrl}/v1/models`;
  let res;
  try {
    res = await upstreamJson(url, gemini ? {} : { authorization: `Bearer ${key}` });
  } catch (err) {
    throw upstreamFailure(err instanceof Error ? err.message : String(err));
  }
  if (res.status < 200 || res.status >= 300) throw upstreamFailure(upstreamErrorText(res.status, res.body));
  const body = res.body as { data?: { id?: unknown }[]; models?: { name?: unknown }[] } | null;
  const ids = gemini
    ? (body?.models ?? []).map((m) => String(m.name ?? '').replace(/^models\//, ''))
    : (body?.data ?? []).map((m) => String(m.id ?? ''));
  return [...new Set(ids.filter(Boolean))];
}

export function createChannelModelFetch(ctx: ChannelsCtx) {
  return {
    /** GET /api/channel/fetch_models/:id, with the stored base URL and key. */
    async fetchModelsOf(id: number): Promise<string[]> {
      const c = await getChannelOrThrow(ctx, id);
      const key = firstKeyOf(c.key);
      if (!key) throw badRequest(MESSAGES.fetchKey);
      return listUpstreamModels(c.type, baseUrlOf(c), key);
    },

    /** POST /api/channel/fetch_models: for a channel still being filled in. */
    async fetchModels(input: FetchModelsInput): Promise<string[]> {
      const key = firstKeyOf(input.key ?? '');
      if (!key) throw badRequest(MESSAGES.fetchKey);
      const base = baseUrlOf({ type: input.type, base_url: input.base_url?.replace(/\/+$/, '') ?? null });
      if (!base) throw badRequest('请填写渠道的 Base URL');
      return listUpstreamModels(input.type, base, key);
    },
  };
}
