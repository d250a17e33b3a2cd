import { describe, expect, it } from 'vitest';
import { dataUrl, jpegHeader, png } from '../../test/image-fixtures.ts';
import { dataUrlImageSize, imageTokens, tileTokens } from './image-tokens.ts';

describe("OpenAI's image tile rule", () => {
  it('counts known sizes as OpenAI does', () => {
    expect(tileTokens(1024, 1024, 'high')).toBe(765); // -> 768x768: 4 tiles
    expect(tileTokens(2048, 4096, 'high')).toBe(1105); // -> 1024x2048 -> 768x1536: 6 tiles
    expect(tileTokens(4096, 2048, 'auto')).toBe(1105);
    expect(tileTokens(4096, 8192)).toBe(1105); // no detail is auto
    expect(tileTokens(512, 512, 'high')).toBe(255); // 1 tile
    expect(tileTokens(100, 100, 'high')).toBe(255); // small images are not scaled up
    expect(tileTokens(513, 100, 'high')).toBe(425); // 2 tiles
    expect(tileTokens(3000, 1000, 'high')).toBe(1445); // -> 2048x682, shortest side already under 768: 4x2 tiles
    expect(tileTokens(4096, 4096, 'low')).toBe(85);
    expect(tileTokens(10, 10, 'low')).toBe(85);
  });
});

describe('image parts of a message', () => {
  const part = (url: string, detail?: string) => ({ type: 'image_url', image_url: { url, detail } });

  it('reads the real size of base64 PNG and JPEG data URLs', () => {
    expect(dataUrlImageSize(dataUrl('image/png', png(2048, 4096)))).toEqual({ width: 2048, height: 4096 });
    expect(dataUrlImageSize(dataUrl('image/jpeg', jpegHeader(1024, 1024)))).toEqual({ width: 1024, height: 1024 });
    // A frame header 128 KiB into the file: found by decoding the whole image.
    expect(dataUrlImageSize(dataUrl('image/jpeg', jpegHeader(3000, 2000, 2)))).toEqual({ width: 3000, height: 2000 });
    expect(dataUrlImageSize('data:image/png;base64,bm90IGFuIGltYWdl')).toBeUndefined();
    expect(dataUrlImageSize('https://example.com/cat.png')).toBeUndefined();
  });

  it('sums every image part: measured data URLs, one tile for remote URLs, 85 at low detail', () => {
    const big = dataUrl('image/png', png(2048, 4096));
    expect(imageTokens([part(big, 'high')])).toBe(1105);
    expect(imageTokens([part(big)])).toBe(1105);
    expect(imageTokens([part(big, 'low')])).toBe(85);
    expect(imageTokens([{ type: 'image_url', image_url: big }])).toBe(1105);
    expect(imageTokens([part('https://example.com/cat.png', 'high')])).toBe(255);
    expect(imageTokens([part('data:image/png;base64,AAAA')])).toBe(255);
    expect(
      imageTokens([
        { type: 'text', text: 'compare' },
        part(dataUrl('image/jpeg', jpegHeader(1024, 1024)), 'auto'),
        part('https://example.com/dog.png', 'low'),
      ]),
    ).toBe(765 + 85);
    expect(imageTokens('just text')).toBe(0);
  });
});
