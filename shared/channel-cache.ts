import { ChannelType } from './channel-types.ts';

/*
 * Automatic prompt-cache breakpoints (issue 29, docs/conversion.md § Anthropic): a channel's
 * settings JSON (`setting`) may say `"auto_cache_control": true | false`. When on, a request an
 * OpenAI or Gemini client sends to the channel gets Anthropic `cache_control` breakpoints on its
 * stable prefix. new-api has no field for this; the name follows its snake_case settings.
 *
 * Absent, it is on for Anthropic channels: agents are most of the traffic, Anthropic bills a cache
 * write at 1.25x the input price and a read at 0.1x, so a prefix sent twice already costs less
 * (1.25 + 0.1 < 2). It is off for Bedrock until the operator turns it on: Bedrock refuses
 * `cache_control` for Claude models it does not cache.
 */

/** The key in the channel's settings JSON. */
export const AUTO_CACHE_CONTROL = 'auto_cache_control';

/** Channel types whose requests can carry Anthropic's `cache_control`: Anthropic, and Claude on Bedrock. */
export const takesCacheControl = (type: number): boolean =>
  type === ChannelType.Anthropic || type === ChannelType.Bedrock;

/** Whether the channel places breakpoints: its setting when it is a boolean, else on for Anthropic channels. */
export function autoCacheControlOn(type: number, setting: Record<string, unknown>): boolean {
  if (!takesCacheControl(type)) return false;
  const v = setting[AUTO_CACHE_CONTROL];
  return typeof v === 'boolean' ? v : type === ChannelType.Anthropic;
}

/** The settings JSON text as an object; {} when empty, undefined when it is not a JSON object. */
export function settingsObject(text: string | null | undefined): Record<string, unknown> | undefined {
  if (!text || text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The settings JSON text with the switch set (other keys kept); undefined when the text is not a JSON object. */
export function withAutoCacheControl(text: string, on: boolean): string | undefined {
  const o = settingsObject(text);
  return o === undefined ? undefined : JSON.stringify({ ...o, [AUTO_CACHE_CONTROL]: on }, null, 2);
}

/** A settings text whose switch, when present, is a boolean (the channel APIs refuse anything else). */
export function validAutoCacheControl(text: string | null | undefined): boolean {
  const v = settingsObject(text)?.[AUTO_CACHE_CONTROL];
  return v === undefined || typeof v === 'boolean';
}
