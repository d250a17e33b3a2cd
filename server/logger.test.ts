import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
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
