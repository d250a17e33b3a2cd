import { defaultModelsQuery } from '../shared/channel-query.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { createTextStreamConverter, textCompletion } from '../shared/text-answer.ts';
import type { ProviderAdapter } from '../types.ts';
import { mapSparkError, parseSparkFrame, piecesOfFrame } from './answer.ts';
import { toSparkFrame } from './request.ts';
import { parseSparkKey } from './sign.ts';
import { sendOverSparkSocket } from './socket.ts';
import { sparkVersionFor } from './versions.ts';

/**
 * Xunfei Spark (type 18): the Spark chat API over WebSocket (wss://spark-api.xf-yun.com/<version>/chat),
 * as new-api relays it. The key is new-api's `APPID|APISecret|APIKey`; the version comes from the
 * model (`SparkDesk-v3.5`) or the channel's `other` (v2.1 by default). The request is the frame
 * sent on the socket; `send` signs the URL, talks to Spark and answers like an HTTP exchange.
 */
export const xunfeiAdapter: ProviderAdapter = {
  id: 'xunfei',
  supports: (mode) => mode === 'chat',

  buildRequest(ctx, body) {
    // A malformed key is the operator's to fix, before anything is sent.
    const { appId } = parseSparkKey(ctx.key);
    const version = sparkVersionFor(ctx.upstreamModel, ctx.channel.other);
    return {
      url: `${ctx.channel.baseUrl}${version.path}`,
      method: 'GET',
      headers: {},
      body: JSON.stringify(toSparkFrame(ctx, body, version, appId)),
    };
  },
  send: sendOverSparkSocket,

  convertResponse: (ctx, text) => {
    const [piece] = piecesOfFrame(parseSparkFrame(text));
    return textCompletion(ctx.upstreamModel, piece);
  },
  createStreamConverter: (ctx, clientWantsUsage) =>
    createTextStreamConverter(ctx.upstreamModel, clientWantsUsage, (e) => piecesOfFrame(parseSparkFrame(e.data))),
  mapError: mapSparkError,
  // Spark has no model-list API: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.XunfeiSpark),
};
