/*
 * The channel types of the channel-type conformance suite (channel-types.test.ts), one entry file
 * per provider next to this one. A type the console offers with a relaying adapter of its own
 * belongs here (the OpenAI-compatible types are covered by the main matrix's chat-only column).
 */
import { aiProxyLibraryEntry } from './aiproxy-library.ts';
import { aliEntry } from './ali.ts';
import { baiduEntry } from './baidu.ts';
import { cloudflareEntry } from './cloudflare.ts';
import { cozeEntry } from './coze.ts';
import { difyEntry } from './dify.ts';
import type { ChannelTypeEntry } from './entry.ts';
import { palmEntry } from './palm.ts';
import { tencentEntry } from './tencent.ts';
import { vertexEntry } from './vertex.ts';
import { xunfeiEntry } from './xunfei.ts';
import { zhipuEntry } from './zhipu.ts';

/** By type id: the page's columns and the suite's order. */
export const CHANNEL_TYPE_ENTRIES: ChannelTypeEntry[] = [
  palmEntry, // 11
  baiduEntry, // 15
  zhipuEntry, // 16
  aliEntry, // 17
  xunfeiEntry, // 18
  aiProxyLibraryEntry, // 21
  tencentEntry, // 23
  difyEntry, // 37
  cloudflareEntry, // 39
  vertexEntry, // 41
  cozeEntry, // 49
];
