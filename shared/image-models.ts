/*
 * Which models make pictures (issue 44), by name: the server prices their fixed ModelPrice per image
 * (pricing unit "image"), lists them under /v1/images/generations, and the console's playground offers
 * them in its image tab. The console cannot see channels, so both sides go by the name alone.
 */

/**
 * Image models of every image upstream: OpenAI (dall-e, gpt-image), Google (imagen-*, gemini-*-image*),
 * xAI (grok-*-image*), MiniMax (image-01), VolcEngine (seedream, seededit), Jimeng's image req_keys
 * (jimeng_t2i_*, jimeng_i2i_*), SiliconFlow and Replicate (flux, kolors, qwen-image, stable diffusion,
 * ideogram, recraft), Zhipu (cogview), Ali (wanx text-to-image).
 */
const IMAGE_MODEL = new RegExp(
  [
    '^(dall-e|gpt-image|imagen-|flux|stable-diffusion|sdxl|sd3|cogview|wanx|kolors|recraft|ideogram)',
    '^gemini-[\\w.-]*image',
    '^grok-[\\w.-]*image',
    '^image-01',
    '^(doubao-)?(seedream|seededit)',
    '^jimeng_(t2i|i2i)',
    '^qwen-image',
    // Ali's text-to-image models (wanx is above): wan2.2-t2i-flash, wan2.5-i2i-preview.
    '^wan[\\w.]*-(t2i|i2i)',
  ].join('|'),
  'i',
);

/** Whether a model makes pictures; an owner prefix (`black-forest-labs/flux-schnell`) is ignored. */
export const isImageModel = (model: string) => IMAGE_MODEL.test(model.replace(/^.*\//, ''));
