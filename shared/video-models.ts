import { ChannelType } from './channel-types.ts';
import { isImageModel } from './image-models.ts';

/*
 * Which models are video models (issue 40), for the pricing page and the price editor: a video model's
 * ModelPrice is per second of video unless VideoPriceUnit names it "job" (tasks/video/price.ts).
 */

/**
 * Video models by name, for those served by a type that also serves chat (Sora on OpenAI and Azure, Veo
 * on Gemini and Vertex, Wan on Ali, Hailuo on MiniMax, Seedance on VolcEngine).
 */
const VIDEO_MODEL =
  /^(sora-|veo-|kling-|jimeng_|vidu|(doubao-)?seedance|minimax-hailuo|hailuo|[ti]2v-|wan[\w.]*-(t2v|i2v|s2v|vace))/i;

export const isVideoModelName = (model: string) => VIDEO_MODEL.test(model.replace(/^.*\//, ''));

/**
 * A model is a video model when its name says so, a video-only channel type serves it (`served`, what
 * the server found), or the operator named it in VideoPriceUnit. An image model never is, even on a
 * video type: Jimeng's image req_keys (jimeng_t2i_v40) are priced per image (issue 44).
 */
export const isVideoModel = (model: string, served: ReadonlySet<string>, units: Readonly<Record<string, unknown>>) =>
  !isImageModel(model) && (served.has(model) || Object.hasOwn(units, model) || isVideoModelName(model));

/**
 * Video-only types whose API has no model list (Kling, Jimeng, Vidu, Doubao video): "fetch models" offers
 * the type's usual names instead of asking (providers/index.ts), and the channel form says so. Sora's
 * API is OpenAI's, whose GET /v1/models lists sora-2.
 */
export const VIDEO_TYPES_WITHOUT_MODEL_LIST: readonly number[] = [
  ChannelType.Kling,
  ChannelType.Jimeng,
  ChannelType.Vidu,
  ChannelType.DoubaoVideo,
];
