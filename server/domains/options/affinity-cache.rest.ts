import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { createAffinityCacheService } from './affinity-cache.service.ts';
import { migrateConsoleSetting } from './console-migrate.service.ts';

const clearQuery = z.object({ all: q.bool(), rule_name: q.str() }).loose();
const usageQuery = z.object({ rule_name: q.str(), using_group: q.str(), key_fp: q.str() }).loose();

/** Settings-tab actions of new-api's 2026 console: the channel-affinity cache and the console-setting migration. */
export function registerConsoleSettingRoutes(app: FastifyInstance, deps: AppDeps) {
  const affinity = createAffinityCacheService(deps.kv, deps.services.options);

  restRoute(app, deps, 'GET', '/api/option/channel_affinity_cache', { auth: 'root' }, () => affinity.stats());
  restRoute(
    app,
    deps,
    'DELETE',
    '/api/option/channel_affinity_cache',
    { auth: 'root', query: clearQuery },
    ({ query }) => affinity.clear({ all: query.all, ruleName: query.rule_name }),
  );
  restRoute(
    app,
    deps,
    'GET',
    '/api/log/channel_affinity_usage_cache',
    { auth: 'admin', query: usageQuery },
    ({ query }) => affinity.usage({ ruleName: query.rule_name, usingGroup: query.using_group, keyFp: query.key_fp }),
  );
  restRoute(app, deps, 'POST', '/api/option/migrate_console_setting', { auth: 'root' }, () =>
    migrateConsoleSetting(deps.services.options),
  );
}
