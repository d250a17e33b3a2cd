import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drained, RelayCancel } from './cancel.ts';

/** A writable whose buffer is full (nobody reads it): it needs draining. */
function fullStream() {
  const out = new PassThrough({ highWaterMark: 4 });
  out.write('0123456789');
  expect(out.writableNeedDrain).toBe(true);
  return out;
}

describe('RelayCancel', () => {
  it('reads like an AbortSignal and fires its listeners once', () => {
    const c = new RelayCancel();
    let fired = 0;
    c.on('abort', () => fired++);
    expect(c.aborted).toBe(false);
    const reason = new Error('upstream idle');
    c.abort(reason);
    c.abort(new Error('again'));
    expect(c.aborted).toBe(true);
    expect(c.reason).toBe(reason);
    expect(fired).toBe(1);
  });

  it('a back-pressured write waits for drain, and leaves no listener behind', async () => {
    const out = fullStream();
    const c = new RelayCancel();
    const wait = drained(out, c);
    out.read(); // the reader catches up
    await expect(wait).resolves.toBeUndefined();
    expect(out.listenerCount('drain')).toBe(0);
    expect(c.listenerCount('abort')).toBe(0);
  });

  it('a client that never drains is released by the cancel (client gone, shutdown)', async () => {
    const out = fullStream();
    const c = new RelayCancel();
    const wait = drained(out, c);
    c.abort(new Error('client gone'));
    await expect(wait).rejects.toThrow('client gone');
    expect(out.listenerCount('drain')).toBe(0);
    await expect(drained(out, c)).rejects.toThrow('client gone');
  });
});
