import type { ChannelQuery } from '../shared/channel-query.ts';

/** Gemini's `GET /v1beta/models?key=` (`{models: [{name: "models/…"}]}`): ids without the `models/` prefix. */
export const geminiModels: ChannelQuery<string[]> = {
  requests: (base, key) => [
    { url: `${base}/v1beta/models?key=${encodeURIComponent(key)}`, method: 'GET', headers: {} },
  ],
  read: ([body]) =>
    ((body as { models?: { name?: unknown }[] } | null)?.models ?? []).map((m) =>
      String(m.name ?? '').replace(/^models\//, ''),
    ),
};
