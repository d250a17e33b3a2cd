import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../test/app.ts';
import { createLogger, lazyChildLogger } from './logger.ts';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger(level, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  return { log, lines };
}

describe('request loggers (made on first use)', () => {
  it('writes lines with the request bindings, redacted like the parent', () => {
    const { log, lines } = capture('info');
    const req = lazyChildLogger(log, { reqId: 'r-123' }, {});
    req.error({ key: 'sk-secret', detail: 'x' }, 'relay failed');
    req.info('second line');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ reqId: 'r-123', msg: 'relay failed', key: '[redacted]', detail: 'x', level: 50 });
    expect(lines[1]).toMatchObject({ reqId: 'r-123', msg: 'second line' });
  });

  it('drops lines below the level without making a child logger', () => {
    const { log, lines } = capture('warn');
    const child = vi.spyOn(log, 'child');
    const req = lazyChildLogger(log, { reqId: 'r-1' }, {});
    req.info('not written');
    req.debug({ a: 1 }, 'nor this');
    expect(lines).toHaveLength(0);
    expect(child).not.toHaveBeenCalled();
    expect(req.level).toBe('warn');
    req.warn('written');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([{ reqId: 'r-1', msg: 'written' }]);
  });

  it('a level set on the request logger applies to it alone', () => {
    const { log, lines } = capture('warn');
    const req = lazyChildLogger(log, { reqId: 'r-2' }, {});
    req.level = 'debug';
    req.debug('now written');
    log.debug('parent still drops this');
    expect(lines).toMatchObject([{ reqId: 'r-2', msg: 'now written' }]);
  });

  it("serves as Fastify's request logger: a handler's line carries the id the client got", async () => {
    const { log, lines } = capture('info');
    const app = Fastify({
      loggerInstance: log as FastifyBaseLogger,
      childLoggerFactory: (parent, bindings, options) =>
        lazyChildLogger(parent as unknown as typeof log, bindings, options) as unknown as FastifyBaseLogger,
      logController: new LogController({ disableRequestLogging: true }),
    });
    app.get('/x', async (req, reply) => {
      req.log.warn('handled');
      reply.header('x-request-id', req.id);
      return { ok: true };
    });
    const res = await app.inject({ url: '/x' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(lines).toMatchObject([{ reqId: res.headers['x-request-id'], msg: 'handled' }]);
  });
});

describe("the app's request log", () => {
  it('a request line names its request id once, the one the client got (issue 39)', async () => {
    const raw: string[] = [];
    const t = await createTestApp({}, { logTo: { write: (line: string) => void raw.push(line) } });
    try {
      const res = await t.app.inject({ url: '/api/status' });
      const id = res.headers['x-request-id'];
      const line = raw.find((l) => l.includes('"request completed"') && l.includes('/api/status'));
      expect(line, raw.join('')).toBeDefined();
      // pino writes a key as often as it is given (JSON.parse would hide a repeat): count it in the text.
      expect(line!.match(/"reqId"/g)).toHaveLength(1);
      expect(JSON.parse(line!)).toMatchObject({ reqId: id, method: 'GET', path: '/api/status', status: 200 });
    } finally {
      await t.close();
    }
  });
});
