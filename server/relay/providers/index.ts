import { anthropicAdapter } from './anthropic/adapter.ts';
import { azureAdapter } from './azure/adapter.ts';
import { bedrockAdapter } from './bedrock/adapter.ts';
import { geminiAdapter } from './gemini/adapter.ts';
import { cohereAdapter, jinaAdapter } from './rerank/adapter.ts';
import { openAIAdapter } from './openai/adapter.ts';
import type { ProviderAdapter } from './types.ts';

/*
 * Channel type -> adapter. OpenAI-compatible types share the OpenAI adapter with
 * their own base URLs (shared/channel-types.ts). A native protocol is one folder
 * under providers/ plus one line below; docs/providers.md is generated from this table.
 */
const openAICompatible = [1, 4, 6, 7, 8, 9, 10, 12, 13, 19, 20, 22, 25, 26, 27, 31, 35, 40, 42, 43, 44, 45, 46, 47, 48];

const registry = new Map<number, ProviderAdapter>([
  ...openAICompatible.map((t) => [t, openAIAdapter] as const),
  [3, azureAdapter],
  [14, anthropicAdapter],
  [24, geminiAdapter],
  [33, bedrockAdapter],
  [34, cohereAdapter],
  [38, jinaAdapter],
]);

/** The adapter for a channel type; undefined when the type has none (the channel cannot serve). */
export const adapterFor = (type: number): ProviderAdapter | undefined => registry.get(type);

/** Every registered channel type with its adapter, by type id (the docs generator reads this). */
export const registeredAdapters = (): [number, ProviderAdapter][] => [...registry].sort((a, b) => a[0] - b[0]);

/** For provider modules: registers (or replaces) the adapter of a channel type. */
export function registerAdapter(type: number, adapter: ProviderAdapter): void {
  registry.set(type, adapter);
}
