import { openAIAdapter } from './openai/adapter.ts';
import type { ProviderAdapter } from './types.ts';

/*
 * Channel type -> adapter. OpenAI-compatible types share the OpenAI adapter with
 * their own base URLs (shared/channel-types.ts). Azure (3), Anthropic (14),
 * Gemini (24) and the other native protocols register their adapters here.
 */
const openAICompatible = [1, 4, 6, 7, 8, 9, 10, 12, 13, 20, 22, 25, 26, 27, 31, 35, 40, 42, 43, 44, 45, 46, 47, 48];

const registry = new Map<number, ProviderAdapter>(openAICompatible.map((t) => [t, openAIAdapter]));

/** The adapter for a channel type; undefined when the type has none (the channel cannot serve). */
export const adapterFor = (type: number): ProviderAdapter | undefined => registry.get(type);

/** For provider modules: registers (or replaces) the adapter of a channel type. */
export function registerAdapter(type: number, adapter: ProviderAdapter): void {
  registry.set(type, adapter);
}
