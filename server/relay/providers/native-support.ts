import type { NativeProtocol, NativeSupport, NativeTokenCount, ProviderAdapter } from './types.ts';

/*
 * An adapter speaks at most one native protocol per front door, but may speak several doors' (Vertex
 * AI: Gemini's for Gemini models, Anthropic's for Claude): `native` and `countTokens` hold one or a
 * list. The relay asks through these two functions rather than reading the fields.
 */

const listOf = <T>(x: T | readonly T[] | undefined): readonly T[] =>
  x === undefined ? [] : Array.isArray(x) ? (x as readonly T[]) : [x as T];

/** The adapter's pass-through for a front door's protocol, if it has one. */
export const nativeSupportFor = (adapter: ProviderAdapter, protocol: NativeProtocol): NativeSupport | undefined =>
  listOf(adapter.native).find((n) => n.protocol === protocol);

/** The adapter's own token count for a front door's count requests, if it has one. */
export const tokenCountFor = (adapter: ProviderAdapter, protocol: NativeProtocol): NativeTokenCount | undefined =>
  listOf(adapter.countTokens).find((c) => c.protocol === protocol);
