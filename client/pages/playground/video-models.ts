import { CHANNEL_TYPES, VIDEO_CHANNEL_TYPES } from '../../../shared/channel-types.ts';
import { isImageModel } from '../../../shared/image-models.ts';

/*
 * Which of the user's models make videos, for the playground's video tab. The console cannot see
 * channels, so it goes by name: the video channel types' default models, the pricing page's
 * "openai-video" door where the server declares it, and the families every video upstream sells.
 */
const defaults = new Set(
  CHANNEL_TYPES.filter((c) => VIDEO_CHANNEL_TYPES.includes(c.id)).flatMap((c) => c.defaultModels),
);
const families = /(^|[-_/])(sora|veo|kling|seedance|hailuo|vidu|wan\d|wanx)|video|[-_](t2v|i2v)([-_]|$)/i;

export function isVideoModel(name: string, endpointTypes?: readonly string[]): boolean {
  if (endpointTypes?.some((e) => e.includes('video'))) return true;
  // Jimeng's image req_keys are among its channel type's default models: they go to the image tab.
  if (isImageModel(name)) return false;
  return defaults.has(name) || families.test(name);
}
