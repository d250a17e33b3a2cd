import { ChannelType } from '../../../../shared/channel-types.ts';
import { aliVideo } from '../../providers/ali/video.ts';
import { geminiVideoAdapter } from '../../providers/gemini/video.ts';
import { jimengVideoAdapter } from '../../providers/jimeng/video.ts';
import { klingVideoAdapter } from '../../providers/kling/video.ts';
import { minimaxVideo } from '../../providers/minimax/video.ts';
import { soraVideoAdapter } from '../../providers/openai/video.ts';
import { vertexVideoAdapter } from '../../providers/vertex/video.ts';
import { viduVideo } from '../../providers/vidu/video.ts';
import { seedanceVideoAdapter } from '../../providers/volcengine/video.ts';
import type { VideoAdapter } from './types.ts';

/*
 * Channel type -> video adapter (new-api's type numbers, shared/channel-types.ts). Each provider's
 * adapter lives in its folder (providers/<name>/video.ts); one line here makes its channels serve
 * video. A channel whose type is absent serves no video model.
 */
const registry = new Map<number, VideoAdapter>([
  [ChannelType.Ali, aliVideo],
  [ChannelType.MiniMax, minimaxVideo],
  [ChannelType.Vidu, viduVideo],
  [ChannelType.Kling, klingVideoAdapter],
  [ChannelType.Gemini, geminiVideoAdapter],
  [ChannelType.VertexAI, vertexVideoAdapter],
  [ChannelType.Jimeng, jimengVideoAdapter],
  ...[ChannelType.DoubaoVideo, ChannelType.VolcEngine].map((t) => [t, seedanceVideoAdapter] as const),
  ...[ChannelType.Sora, ChannelType.OpenAI, ChannelType.Azure].map((t) => [t, soraVideoAdapter] as const),
]);

export const videoAdapterFor = (channelType: number): VideoAdapter | undefined => registry.get(channelType);

/** The channel types that run video jobs (for the channel choice). */
export const videoChannelTypes = (): readonly number[] => [...registry.keys()];
