import type { OptionReader } from '../../../../shared/options.ts';
import type { ChannelConfig } from '../../channel-config.ts';
import type { RelayPrincipal } from '../../principal.ts';

/*
 * The video contract (issue 40). Front doors (OpenAI's /v1/videos, new-api's /v1/video/generations,
 * Kling's, Jimeng's and Google's doors) turn their dialect into a VideoRequest and read a VideoTaskView
 * back; upstream adapters (providers/<name>/video.ts) turn a VideoRequest into their provider's task
 * API and report a VideoProgress. The core (tasks/video/service.ts) owns everything between: choice of
 * channel, reservation, the task row, polling, settlement or refund, isolation and the content stream.
 * Adapters never touch the database, billing or the client socket.
 */

/** The four states every door maps its own words onto. */
export type VideoState = 'queued' | 'in_progress' | 'completed' | 'failed';

/** An image given to a video model: a URL (https or data:) or bytes from a multipart upload. */
export interface VideoImage {
  url?: string;
  data?: Buffer;
  /** e.g. image/png; required with `data`. */
  mime?: string;
}

/** What a client asked for, in the gateway's words (every door maps onto this). */
export interface VideoRequest {
  /** The client's model name (before the channel's model mapping). */
  model: string;
  prompt: string;
  negativePrompt?: string;
  /** Requested duration in whole seconds; absent = the model's default. */
  seconds?: number;
  /** Pixel size, `WIDTHxHEIGHT` (OpenAI's `size`). */
  size?: string;
  /** e.g. `16:9`, `9:16`, `1:1`. */
  aspectRatio?: string;
  /** e.g. `480p`, `720p`, `1080p`. */
  resolution?: string;
  /** Image-to-video: the first frame (OpenAI's `input_reference`, Kling's `image`). */
  firstFrame?: VideoImage;
  /** The last frame, where the model takes one (Kling `image_tail`, Veo `lastFrame`). */
  lastFrame?: VideoImage;
  seed?: number;
  /** Remix of an earlier job: the upstream id of that job on the same channel. */
  remixOf?: string;
  /**
   * Provider-specific fields that only the same provider understands (Kling `cfg_scale`, `mode`,
   * Veo `personGeneration`...). A door fills it with what it could not map; an adapter of that
   * provider may read it, any other adapter ignores it.
   */
  extra?: Record<string, unknown>;
}

/** What the upstream says about a job: at submit (optional) and at every poll. */
export interface VideoProgress {
  state: VideoState;
  /** 0..100 */
  progress: number;
  /** Seconds of video produced (known at completion; billing settles on it). */
  seconds?: number;
  size?: string;
  resolution?: string;
  /** Why it failed, in the upstream's words (shown to the user; never holds a key). */
  failReason?: string;
  /**
   * Where the upstream serves the files, as the adapter needs them for `content` (URLs, file names).
   * Stored server-side only; never sent to a client.
   */
  content?: Partial<Record<VideoVariant, string>>;
}

export type VideoVariant = 'video' | 'thumbnail' | 'spritesheet';

/** One upstream call's context: the channel, the key picked for it, the model name sent upstream. */
export interface VideoCall {
  channel: ChannelConfig;
  /** Never log it. */
  key: string;
  upstreamModel: string;
  options: OptionReader;
}

/** The limits of what an upstream model takes; the core refuses (400, saying why) what exceeds them. */
export interface VideoCapabilities {
  /** Durations the model produces; the first is the default. */
  seconds: readonly number[];
  /** Pixel sizes or resolutions it accepts (empty = any / not settable). */
  sizes?: readonly string[];
  resolutions?: readonly string[];
  aspectRatios?: readonly string[];
  firstFrame: boolean;
  lastFrame: boolean;
  remix: boolean;
  /** Variants `content` can serve. */
  variants: readonly VideoVariant[];
  /**
   * The provider charges the same per second at every size and resolution (Veo, by Google's price
   * list), so the price takes no size multiplier; absent, 1080p and Sora's large sizes cost more
   * (tasks/video/price.ts).
   */
  samePriceAnySize?: boolean;
}

/** An opened upstream file: the core streams it to the client (Range passed through). */
export interface VideoFile {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
}

/** One upstream's video task API (providers/<name>/video.ts). */
export interface VideoAdapter {
  capabilities(upstreamModel: string): VideoCapabilities;
  /** Submits; throws a RelayError (400 for what cannot be carried, the upstream's status otherwise). */
  submit(call: VideoCall, req: VideoRequest): Promise<{ upstreamId: string; progress?: VideoProgress }>;
  poll(call: VideoCall, upstreamId: string): Promise<VideoProgress>;
  /** Opens a finished job's file; `stored` is the last VideoProgress.content. */
  content(
    call: VideoCall,
    upstreamId: string,
    stored: VideoProgress['content'],
    variant: VideoVariant,
    range?: string,
  ): Promise<VideoFile>;
  /** Remix (Sora): a new job from a finished one. */
  remix?(
    call: VideoCall,
    upstreamId: string,
    prompt: string,
  ): Promise<{ upstreamId: string; progress?: VideoProgress }>;
  /** Deletes the upstream's copy, where the API has it. */
  remove?(call: VideoCall, upstreamId: string): Promise<void>;
}

/** A job as every door reads it (ids are the gateway's own, never the upstream's). */
export interface VideoTaskView {
  /** e.g. `video_68d7512d07848190b3e45da0ecbebcde` */
  id: string;
  model: string;
  state: VideoState;
  progress: number;
  prompt: string;
  /** Requested seconds while running, produced seconds once completed. */
  seconds: number;
  size?: string;
  resolution?: string;
  aspectRatio?: string;
  createdAt: number;
  completedAt?: number;
  /** Unix seconds after which the content is gone (upstream retention), when known. */
  expiresAt?: number;
  error?: { code: string; message: string };
  remixedFromId?: string;
  /** Quota held or charged for it (the log has the details). */
  quota: number;
  /** Which door created it: 'openai' | 'newapi' | 'kling' | 'jimeng' | 'google'. */
  door: VideoDoor;
  /** The files `content` can serve for it once completed. */
  variants: readonly VideoVariant[];
}

export type VideoDoor = 'openai' | 'newapi' | 'kling' | 'jimeng' | 'google';

/** The core every door calls (implemented in tasks/video/service.ts). */
export interface VideoService {
  submit(
    p: RelayPrincipal,
    req: VideoRequest,
    meta: { ip: string; requestId: string; door: VideoDoor },
  ): Promise<VideoTaskView>;
  /** The caller's own job (404 otherwise); refreshed from the upstream when older than a few seconds. */
  get(p: RelayPrincipal, id: string): Promise<VideoTaskView>;
  list(
    p: RelayPrincipal,
    q: { after?: string; limit: number; order: 'asc' | 'desc' },
  ): Promise<{ items: VideoTaskView[]; hasMore: boolean }>;
  remove(p: RelayPrincipal, id: string): Promise<VideoTaskView>;
  remix(p: RelayPrincipal, id: string, prompt: string, meta: { ip: string; requestId: string }): Promise<VideoTaskView>;
  /** Streams a finished job's file (Range honoured); 404 for another user's job, 409 when not finished. */
  content(p: RelayPrincipal, id: string, variant: VideoVariant, range?: string): Promise<VideoFile>;
}
