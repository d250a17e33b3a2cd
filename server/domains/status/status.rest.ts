import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../context.ts';
import { raw, restRoute } from '../../compat/route.ts';
import { probeOptionsTable } from '../options/options.repo.ts';

export function registerStatusRoutes(app: FastifyInstance, deps: AppDeps) {
  const { status, options } = deps.services;

  restRoute(app, deps, 'GET', '/api/status', { auth: 'public' }, () => status.getStatus());

  restRoute(app, deps, 'GET', '/api/status/test', { auth: 'admin' }, async () => {
    try {
      await probeOptionsTable(deps.db);
    } catch {
      return raw({ success: false, message: '数据库连接失败' }, 503);
    }
    return raw({ success: true, message: 'Server is running' });
  });

  restRoute(app, deps, 'GET', '/api/notice', { auth: 'public' }, () => options.get('Notice'));
  restRoute(app, deps, 'GET', '/api/about', { auth: 'public' }, () => options.get('About'));
  restRoute(app, deps, 'GET', '/api/home_page_content', { auth: 'public' }, () => options.get('HomePageContent'));
  // Legal pages of today's console: empty while unpublished (the console then hides the links).
  restRoute(app, deps, 'GET', '/api/user-agreement', { auth: 'public' }, () => options.get('legal.user_agreement'));
  restRoute(app, deps, 'GET', '/api/privacy-policy', { auth: 'public' }, () => options.get('legal.privacy_policy'));
  // new-api's dashboard reads its Uptime Kuma monitors here; Switchyard has none to report, so the
  // answer is an empty list of groups and the dashboard shows its "no monitor configured" state.
  restRoute(app, deps, 'GET', '/api/uptime/status', { auth: 'public' }, () => []);
}
