import { describe, expect, it } from 'vitest';
import { renderProviderDocs } from '../../scripts/provider-docs.ts';
import { chatAdapterOf, makesImagesOnly } from '../../server/relay/images/upstream.ts';
import { adapterFor as wrappedAdapterFor } from '../../server/relay/providers/index.ts';
import { videoAdapterFor } from '../../server/relay/tasks/video/adapters.ts';
import {
  CHANNEL_TYPES,
  ChannelType as T,
  TASK_CHANNEL_TYPES,
  VIDEO_CHANNEL_TYPES,
} from '../../shared/channel-types.ts';
import { IMAGE_UPSTREAMS } from './image-matrix.ts';
import { UPSTREAMS } from './matrix.ts';
import { CHANNEL_TYPE_ENTRIES } from './channel-types/index.ts';

/*
 * Issue #30: no channel type the console offers answers "unsupported". Every type has an adapter
 * (task types are relayed by their task doors), and every adapter that is not one of the four
 * dialects the main matrix covers (OpenAI, Azure's OpenAI, Anthropic, Gemini) or a rerank/embedding
 * vendor has a strict fake in the channel-type suite.
 */
/** A type's adapter as its chat is relayed (the image front of issue 44 unwrapped). */
const adapterFor = (type: number) => {
  const a = wrappedAdapterFor(type);
  return a && chatAdapterOf(a);
};

describe('every channel type relays', () => {
  const offered = CHANNEL_TYPES.filter((t) => t.id !== 0 && !TASK_CHANNEL_TYPES.includes(t.id));

  it('has an adapter for every type the console offers', () => {
    expect(offered.filter((t) => !adapterFor(t.id)).map((t) => `${t.id} ${t.name}`)).toEqual([]);
  });

  it('gives every provider adapter of its own a column in the channel-type suite', () => {
    const covered = new Set([
      ...UPSTREAMS.map((u) => adapterFor(u.channelType)),
      adapterFor(3), // Azure: the OpenAI wire format behind deployments (its own tests)
      adapterFor(33), // Bedrock: Anthropic's wire format behind SigV4 (its own tests)
      adapterFor(34), // Cohere rerank
      adapterFor(38), // Jina embeddings and rerank
    ]);
    // An images-only type (Replicate) has its column in the image matrix instead (test/conformance/image-matrix.ts).
    const inImageMatrix = (id: number) =>
      makesImagesOnly(adapterFor(id)) && IMAGE_UPSTREAMS.some((u) => u.label.endsWith(`(${id})`));
    const missing = offered
      .filter(
        (t) =>
          !covered.has(adapterFor(t.id)) && !CHANNEL_TYPE_ENTRIES.some((e) => e.type === t.id) && !inImageMatrix(t.id),
      )
      .map((t) => `${t.id} ${t.name}`);
    expect(missing).toEqual([]);
  });

  it('shows no type as "not relayed" in docs/providers.md', () => {
    expect(renderProviderDocs()).not.toMatch(/not relayed/);
  });

  // Issue 40: the video-only types, and the chat types new-api also runs video jobs on (Sora on OpenAI
  // and Azure, Wan on Ali, Hailuo on MiniMax, Veo on Gemini and Vertex, Seedance on VolcEngine).
  it('gives every video type a video adapter, and lists it as relayed by the video doors', () => {
    const video = [...VIDEO_CHANNEL_TYPES, T.OpenAI, T.Azure, T.Ali, T.MiniMax, T.Gemini, T.VertexAI, T.VolcEngine];
    expect(video.filter((t) => !videoAdapterFor(t))).toEqual([]);
    const rows = renderProviderDocs().split('\n');
    for (const t of video)
      expect(
        rows.find((r) => r.startsWith(`| ${t} |`)),
        `type ${t}`,
      ).toContain('video doors: `/v1/videos`');
  });
});
