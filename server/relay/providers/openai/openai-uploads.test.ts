import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { buildMultipart, parseMultipart } from '../../front-doors/multipart.ts';
import { countText, loadTokenizers } from '../../usage.ts';
import { payer } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'tts-1': 7.5, 'whisper-1': 15 }),
    ModelPrice: JSON.stringify({ 'gpt-image-edit': 0.02 }),
  });
  await insertChannel(h.deps, {
    baseUrl: h.fake.url,
    models: ['tts-1', 'whisper-1', 'gpt-image-edit'],
    modelMapping: { 'whisper-1': 'whisper-large' },
  });
  await loadTokenizers();
});
afterAll(async () => {
  await h.close();
});

describe('multipart and binary OpenAI endpoints', () => {
  it('multipart round trip keeps files byte for byte and replaces fields', () => {
    const file = Buffer.from([0, 1, 2, 255, 13, 10, 45, 45]);
    const built = buildMultipart(
      [
        { name: 'model', data: Buffer.from('a') },
        { name: 'file', filename: 'x.mp3', contentType: 'audio/mpeg', data: file },
      ],
      { model: 'b' },
    );
    const parts = parseMultipart(built.body, built.contentType);
    expect(parts.map((p) => [p.name, p.filename, p.data.toString('hex')])).toEqual([
      ['model', undefined, Buffer.from('b').toString('hex')],
      ['file', 'x.mp3', file.toString('hex')],
    ]);
  });

  it('/v1/audio/speech streams the audio bytes back and bills the input text', async () => {
    const p = await payer(h);
    const res = await h
      .client(p.key)
      .audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello world, how are you?' });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('ID3fake-audio:Hello world, how are you?');
    const tokens = countText('tts-1', 'Hello world, how are you?');
    expect(await p.charges()).toEqual([Math.round(tokens * 7.5)]);
  });

  it('/v1/audio/transcriptions and translations: multipart upload relayed with the mapped model, billed by the text', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const file = await toFile(Buffer.from('RIFFfake-wav-bytes'), 'a.wav', { type: 'audio/wav' });
    const t = await c.audio.transcriptions.create({ model: 'whisper-1', file });
    expect(t.text).toBe('hello from the audio file');
    const sent = h.fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/audio/transcriptions');
    expect(String(sent.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    const tr = await c.audio.translations.create({ model: 'whisper-1', file: await toFile(Buffer.from('x'), 'b.mp3') });
    expect(tr.text).toBe('hello from the audio file');
    const q = Math.round(countText('whisper-large', 'hello from the audio file') * 15);
    expect(await p.charges()).toEqual([q, q]);
    const logs = await p.logs();
    expect(JSON.parse(logs[0].other).upstream_model_name).toBe('whisper-large');
  });

  it('/v1/images/edits: multipart, fixed price per image', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.edit({
      model: 'gpt-image-edit',
      prompt: 'add a hat',
      image: await toFile(fakePng(8, 8, 'in'), 'i.png', { type: 'image/png' }),
      response_format: 'b64_json',
    });
    expect(labelOf(Buffer.from(r.data?.[0].b64_json ?? '', 'base64'))).toBe('gpt-image-edit:edit(in)#0');
    expect(await p.charges()).toEqual([Math.round(0.02 * 500_000)]);
  });

  it('rejects a malformed multipart body in OpenAI error shape', async () => {
    const p = await payer(h);
    const res = await fetch(`${h.baseURL}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'multipart/form-data' },
      body: 'nothing',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('boundary');
  });
});
