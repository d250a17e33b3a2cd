import { ChannelType } from '../../../shared/channel-types.ts';
import { geminiImages } from '../providers/gemini/images.ts';
import { jimengImages } from '../providers/jimeng/images.ts';
import { minimaxImages } from '../providers/minimax/images.ts';
import { replicateImages } from '../providers/replicate/images.ts';
import { siliconflowImages } from '../providers/siliconflow/images.ts';
import { seedreamImages } from '../providers/volcengine/images.ts';
import { vertexImages } from '../providers/vertex/images.ts';
import { xaiImages } from '../providers/xai/images.ts';
import { zhipuImages } from '../providers/zhipu/images.ts';
import type { ImageUpstream } from './upstream.ts';

/*
 * Channel type -> its image API (issue 44), where it is not OpenAI's `/v1/images/*`. providers/index.ts
 * puts each in front of the type's chat adapter (`withImages`), or makes an images-only adapter of it
 * for types without one (`imagesOnly`: Jimeng, Replicate). One line per upstream; its module lives in
 * the provider's folder (providers/<name>/images.ts) with its fake in scripts/fake-upstream/images/.
 */
export const IMAGE_UPSTREAMS: ReadonlyMap<number, ImageUpstream> = new Map<number, ImageUpstream>([
  [ChannelType.Gemini, geminiImages],
  [ChannelType.VertexAI, vertexImages],
  [ChannelType.VolcEngine, seedreamImages],
  [ChannelType.Jimeng, jimengImages],
  [ChannelType.MiniMax, minimaxImages],
  [ChannelType.Replicate, replicateImages],
  [ChannelType.ZhipuV4, zhipuImages],
  [ChannelType.XAI, xaiImages],
  [ChannelType.SiliconFlow, siliconflowImages],
]);
