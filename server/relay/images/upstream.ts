import type { RelayCancel } from '../cancel.ts';
import { sendUpstream, type UpstreamResponse } from '../upstream.ts';
import type {
  AttemptContext,
  ProviderAdapter,
  StreamConverter,
  UpstreamError,
  UpstreamRequest,
  Usage,
} from '../providers/types.ts';
import { readImageRequest, type ImageRequest, isImageMode } from './image-request.ts';

/*
 * One image upstream's API (issue 44), beside the channel type's chat adapter: many types share the
 * OpenAI adapter for chat (MiniMax, Zhipu v4, SiliconFlow, VolcEngine, xAI) while their image APIs
 * differ, and some types only make images (Replicate) or only make images and videos (Jimeng).
 * `withImages` puts an ImageUpstream in front of a chat adapter for the two image modes;
 * `imagesOnly` makes an adapter of it alone. providers/index.ts wires them per type (images/upstreams.ts).
 */

export interface ImageUpstream {
  /** Short name for docs/providers.md and the conformance matrix, e.g. `imagen`, `seedream`. */
  id: string;
  /** Whether it serves generations (`images`) and/or edits (`image_edits`). */
  modes: readonly ('images' | 'image_edits')[];
  /** The upstream request for the client's ImageRequest; `ctx.upstreamModel` is the mapped model. */
  buildRequest(ctx: AttemptContext, req: ImageRequest): UpstreamRequest | Promise<UpstreamRequest>;
  /**
   * For upstreams that are not one HTTP exchange (a prediction or task polled to completion): sends
   * and answers like one exchange (upstream.ts `syntheticAnswer`), the final JSON or the failure's status.
   */
  send?(ctx: AttemptContext, req: UpstreamRequest, signal: AbortSignal | RelayCancel): Promise<UpstreamResponse>;
  /** A 2xx answer -> the canonical images JSON (image-answer.ts `imagesAnswer`) and its token usage, if any. */
  convertResponse(ctx: AttemptContext, text: string): { body: string; usage?: Usage };
  /** The upstream's error body in OpenAI terms; undefined when it is not in this upstream's shape. */
  mapError?(status: number, text: string): UpstreamError | undefined;
  /** See ProviderAdapter.imageFileRequest. */
  imageFileRequest?(ctx: AttemptContext, url: string): UpstreamRequest;
}

/** Image answers are never streamed: a door that streams gets the whole answer in one event. */
const noStream = (): StreamConverter => {
  throw new Error('image answers are not streamed');
};

/** The chat adapter behind a `withImages` wrapper, and the adapters made by `imagesOnly` (for the coverage checks). */
const chatBehind = new WeakMap<ProviderAdapter, ProviderAdapter>();
const onlyImages = new WeakSet<ProviderAdapter>();

/** The adapter that relays a type's chat, unwrapped from its image front (the adapter itself otherwise). */
export const chatAdapterOf = (adapter: ProviderAdapter): ProviderAdapter => chatBehind.get(adapter) ?? adapter;

/** Whether the adapter only makes images (made by `imagesOnly`). */
export const makesImagesOnly = (adapter: ProviderAdapter | undefined): boolean =>
  adapter !== undefined && onlyImages.has(adapter);

/** `chat`'s adapter for every mode but the image ones, which go to `images`. */
export function withImages(chat: ProviderAdapter, images: ImageUpstream): ProviderAdapter {
  const own = (mode: string) => isImageMode(mode as never) && images.modes.includes(mode as 'images');
  const wrapped: ProviderAdapter = {
    ...chat,
    supports: (mode) => own(mode) || (!isImageMode(mode) && chat.supports(mode)),
    buildRequest: (ctx, body) =>
      own(ctx.mode) ? images.buildRequest(ctx, readImageRequest(ctx.mode, body)) : chat.buildRequest(ctx, body),
    send: (ctx, req, signal) =>
      own(ctx.mode) && images.send
        ? images.send(ctx, req, signal)
        : chat.send
          ? chat.send(ctx, req, signal)
          : sendUpstream(req, signal, ctx.headersTimeoutMs),
    convertResponse: (ctx, text) =>
      own(ctx.mode) ? images.convertResponse(ctx, text) : chat.convertResponse(ctx, text),
    mapError: (status, text) => images.mapError?.(status, text) ?? chat.mapError(status, text),
    imageFileRequest: images.imageFileRequest ?? chat.imageFileRequest,
  };
  chatBehind.set(wrapped, chat);
  return wrapped;
}

/** An adapter for a type that only makes images through the relay (its videos, if any, are tasks). */
export function imagesOnly(
  images: ImageUpstream,
  mapError: (status: number, text: string) => UpstreamError,
  /** The type's own fetch-models or balance queries. */
  own: Pick<ProviderAdapter, 'models' | 'balances'> = {},
): ProviderAdapter {
  const adapter: ProviderAdapter = {
    ...own,
    id: images.id,
    supports: (mode) => isImageMode(mode) && images.modes.includes(mode),
    buildRequest: (ctx, body) => images.buildRequest(ctx, readImageRequest(ctx.mode, body)),
    send: images.send ? (ctx, req, signal) => images.send!(ctx, req, signal) : undefined,
    convertResponse: (ctx, text) => images.convertResponse(ctx, text),
    createStreamConverter: noStream,
    mapError: (status, text) => images.mapError?.(status, text) ?? mapError(status, text),
    imageFileRequest: images.imageFileRequest,
  };
  onlyImages.add(adapter);
  return adapter;
}
