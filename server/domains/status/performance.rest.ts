import type { FastifyInstance } from 'fastify';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { createPerformanceMonitor } from './performance.service.ts';

/** new-api's performance tab (root): this process's numbers; its disk cache and log files do not exist here. */
export function registerPerformanceRoutes(app: FastifyInstance, deps: AppDeps) {
  const monitor = createPerformanceMonitor(deps);
  app.addHook('onClose', async () => monitor.stop());

  restRoute(app, deps, 'GET', '/api/performance/stats', { auth: 'root' }, () => monitor.stats());
  // No disk cache: nothing is left to clear.
  restRoute(app, deps, 'DELETE', '/api/performance/disk_cache', { auth: 'root' }, () => undefined);
  restRoute(app, deps, 'POST', '/api/performance/reset_stats', { auth: 'root' }, () => {
    monitor.resetStats();
  });
  restRoute(app, deps, 'POST', '/api/performance/gc', { auth: 'root' }, () => {
    monitor.collectGarbage();
  });
  // Switchyard logs to stdout (pino), not to files the console could list or delete.
  restRoute(app, deps, 'GET', '/api/performance/logs', { auth: 'root' }, () => []);
  restRoute(app, deps, 'DELETE', '/api/performance/logs', { auth: 'root' }, () => undefined);
}
