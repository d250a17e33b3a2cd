/*
 * The rules of OpenAI's images API the strict fake enforces (openai.ts), per model as the API
 * reference states them, and its error type (OpenAI's `{error: {message, type, param, code}}`).
 */

export interface ModelRules {
  sizes: string[];
  qualities: string[];
  maxN: number;
  maxPrompt: number;
  /** Answers base64 only and refuses `response_format`. */
  gptImage: boolean;
  edits: boolean;
}

export const MODELS: Record<string, ModelRules> = {
  'dall-e-2': {
    sizes: ['256x256', '512x512', '1024x1024'],
    qualities: ['standard'],
    maxN: 10,
    maxPrompt: 1000,
    gptImage: false,
    edits: true,
  },
  'dall-e-3': {
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    qualities: ['standard', 'hd'],
    maxN: 1,
    maxPrompt: 4000,
    gptImage: false,
    edits: false,
  },
  'gpt-image-1': {
    sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
    qualities: ['low', 'medium', 'high', 'auto'],
    maxN: 10,
    maxPrompt: 32000,
    gptImage: true,
    edits: true,
  },
};

/** What any other model name gets on the default fake: dall-e-2's rules without its size list. */
export const LOOSE: ModelRules = { sizes: [], qualities: [], maxN: 10, maxPrompt: 32000, gptImage: false, edits: true };

export class ImagesError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly type = 'invalid_request_error',
  ) {
    super(message);
  }
}

export const invalid = (param: string, value: unknown, allowed: string[]) =>
  new ImagesError(
    400,
    `Invalid value: '${String(value)}'. Supported values are: ${allowed.map((a) => `'${a}'`).join(', ')}.`,
    param,
    'invalid_value',
  );

export type Fields = Record<string, string | number>;
export interface Upload {
  filename: string;
  type: string;
  data: Buffer;
}

export const KNOWN = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'quality',
  'style',
  'response_format',
  'user',
  'output_format',
  'background',
  'moderation',
  'output_compression',
  'input_fidelity',
]);

/** PNG width and height (IHDR); undefined for anything that is not a PNG. */
export function pngSize(data: Buffer): { w: number; h: number } | undefined {
  if (data.length < 24 || data.readUInt32BE(0) !== 0x89504e47) return undefined;
  return { w: data.readUInt32BE(16), h: data.readUInt32BE(20) };
}

export function checkEdit(model: string, rules: ModelRules, images: Upload[], mask?: Upload) {
  if (!rules.edits)
    throw new ImagesError(
      400,
      `Invalid value: '${model}'. Value must be 'dall-e-2' or 'gpt-image-1'.`,
      'model',
      'invalid_value',
    );
  if (images.length === 0)
    throw new ImagesError(400, "Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  if (model === 'dall-e-2') {
    if (images.length > 1)
      throw new ImagesError(400, 'dall-e-2 edits take exactly one image.', 'image', 'invalid_value');
    const size = pngSize(images[0].data);
    if (!size)
      throw new ImagesError(400, 'Uploaded image must be a PNG and less than 4 MB.', 'image', 'invalid_image_format');
    if (size.w !== size.h) throw new ImagesError(400, 'Uploaded image must be a square PNG.', 'image', 'invalid_image');
    if (images[0].data.length > 4 * 1024 * 1024)
      throw new ImagesError(400, 'Uploaded image must be a PNG and less than 4 MB.', 'image', 'image_too_large');
    if (mask) {
      const m = pngSize(mask.data);
      if (!m || m.w !== size.w || m.h !== size.h)
        throw new ImagesError(
          400,
          'Invalid mask image: the mask and the image must have the same dimensions.',
          'mask',
          'invalid_image',
        );
    }
  }
  if (images.length > 16)
    throw new ImagesError(
      400,
      `Invalid 'image': array too long. Expected an array with maximum length 16, but got an array with length ${images.length} instead.`,
      'image',
      'array_above_max_length',
    );
  for (const img of images)
    if (!/^image\/(png|jpeg|webp)$/.test(img.type) && !pngSize(img.data))
      throw new ImagesError(
        400,
        `Invalid file '${img.filename}': unsupported mimetype ('${img.type}'). Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`,
        'image',
        'unsupported_file_mimetype',
      );
}
