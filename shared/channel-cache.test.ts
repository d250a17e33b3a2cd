import { describe, expect, it } from 'vitest';
import {
  autoCacheControlOn,
  settingsObject,
  takesCacheControl,
  validAutoCacheControl,
  withAutoCacheControl,
} from './channel-cache.ts';
import { ChannelType } from './channel-types.ts';

describe('the automatic cache switch of a channel', () => {
  it('is on by default for Anthropic, off for Bedrock, and never on for other types', () => {
    expect(autoCacheControlOn(ChannelType.Anthropic, {})).toBe(true);
    expect(autoCacheControlOn(ChannelType.Anthropic, { auto_cache_control: false })).toBe(false);
    expect(autoCacheControlOn(ChannelType.Bedrock, {})).toBe(false);
    expect(autoCacheControlOn(ChannelType.Bedrock, { auto_cache_control: true })).toBe(true);
    expect(autoCacheControlOn(ChannelType.OpenAI, { auto_cache_control: true })).toBe(false);
    expect(takesCacheControl(ChannelType.Gemini)).toBe(false);
    // Anything but a boolean is the default (the channel APIs refuse it anyway).
    expect(autoCacheControlOn(ChannelType.Anthropic, { auto_cache_control: 'false' })).toBe(true);
  });

  it('is written into the settings JSON beside the other keys; a broken JSON is left alone', () => {
    expect(JSON.parse(withAutoCacheControl('{"proxy":"http://p"}', false)!)).toEqual({
      proxy: 'http://p',
      auto_cache_control: false,
    });
    expect(JSON.parse(withAutoCacheControl('', true)!)).toEqual({ auto_cache_control: true });
    expect(withAutoCacheControl('{oops', true)).toBeUndefined();
    expect(settingsObject('[1]')).toBeUndefined();
    expect(validAutoCacheControl('{"auto_cache_control":"no"}')).toBe(false);
    expect(validAutoCacheControl('{"auto_cache_control":false}')).toBe(true);
    expect(validAutoCacheControl('')).toBe(true);
  });
});
