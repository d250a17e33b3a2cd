import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  batchTagInput,
  createChannelInput,
  editTagInput,
  fetchModelsInput,
  type KeyAction,
  keyActions,
  multiKeyManageInput,
  tagInput,
  updateChannelInput,
} from '../../../shared/schemas/channels.ts';
import { idsInput } from '../../../shared/schemas/common.ts';
import { q, raw, restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { badRequest } from '../../errors.ts';
import { keyActionText } from './multi-key.view.ts';

/* /api/channel/* (admin), with new-api's answer shapes (api-contract §4); GET /api/models is in models/models.rest.ts. */

const pageQuery = z.object({
  p: q.int(0).transform((v) => Math.max(0, v)),
  page_size: q.int(10).transform((v) => (v < 1 ? 10 : Math.min(v, 1000))),
  id_sort: q.bool(),
  tag_mode: q.bool(),
});

const searchQuery = z.object({
  keyword: q.str().transform((v) => v.trim()),
  group: q.str().transform((v) => v.trim()),
  model: q.str().transform((v) => v.trim()),
  id_sort: q.bool(),
  tag_mode: q.bool(),
});

const idParams = z.object({ id: q.id() });
const copyQuery = z.object({
  suffix: z.preprocess((v) => (v === undefined ? '_复制' : v), z.string().max(64)),
  reset_balance: z.preprocess((v) => v === undefined || v === 'true' || v === '1', z.boolean()),
});
const testQuery = z.object({ model: q.str().transform((v) => v.trim()) });

export function registerChannelRoutes(app: FastifyInstance, deps: AppDeps) {
  const { channels } = deps.services;
  const admin = { auth: 'admin' } as const;

  restRoute(app, deps, 'GET', '/api/channel/', { ...admin, query: pageQuery }, ({ query }) =>
    channels.page({ page: query.p, pageSize: query.page_size, idSort: query.id_sort, tagMode: query.tag_mode }),
  );
  restRoute(app, deps, 'GET', '/api/channel/search', { ...admin, query: searchQuery }, ({ query }) =>
    channels.search({ ...query, idSort: query.id_sort, tagMode: query.tag_mode }),
  );
  restRoute(app, deps, 'GET', '/api/channel/models', admin, () => channels.knownModels());
  restRoute(app, deps, 'GET', '/api/channel/models_enabled', admin, () => channels.enabledModels());

  restRoute(app, deps, 'GET', '/api/channel/test', admin, () => {
    channels.startTestAll();
    return undefined;
  });
  restRoute(app, deps, 'GET', '/api/channel/test/:id', { ...admin, params: idParams, query: testQuery }, async (i) => {
    const r = await channels.testChannel(i.params.id, i.query.model || undefined);
    // new-api's shape: `time` in seconds next to success/message, no data; `detail` (ours) only on a network failure.
    return raw({ success: r.ok, message: r.message, time: r.timeMs / 1000, ...(r.detail ? { detail: r.detail } : {}) });
  });

  restRoute(app, deps, 'GET', '/api/channel/update_balance', admin, async () => {
    await channels.updateAllBalances();
    return undefined;
  });
  restRoute(app, deps, 'GET', '/api/channel/update_balance/:id', { ...admin, params: idParams }, async ({ params }) =>
    raw({ success: true, message: '', balance: await channels.updateBalance(params.id) }),
  );

  restRoute(
    app,
    deps,
    'GET',
    '/api/channel/fetch_models/:id',
    { ...admin, params: idParams, realStatus: true },
    ({ params }) => channels.fetchModelsOf(params.id),
  );
  restRoute(
    app,
    deps,
    'POST',
    '/api/channel/fetch_models',
    { ...admin, body: fetchModelsInput, realStatus: true },
    async ({ body }) => raw({ success: true, data: await channels.fetchModels(body) }),
  );

  // Newer upstream's copy call; answers the new channel's id.
  restRoute(
    app,
    deps,
    'POST',
    '/api/channel/copy/:id',
    { ...admin, params: idParams, query: copyQuery },
    async (i) => ({
      id: await channels.copy(i.params.id, i.query.suffix, i.query.reset_balance),
    }),
  );

  restRoute(app, deps, 'POST', '/api/channel/fix', admin, () => channels.fixAbilities());

  // new-api's per-key management of a multi-key channel (issue 28): read the keys' status, or one action.
  restRoute(app, deps, 'POST', '/api/channel/multi_key/manage', { ...admin, body: multiKeyManageInput }, async (i) => {
    const b = i.body;
    if (b.action === 'get_key_status')
      return channels.keyStatus(b.channel_id, {
        page: b.page ?? undefined,
        pageSize: b.page_size ?? undefined,
        status: b.status ?? undefined,
      });
    if (!(keyActions as readonly string[]).includes(b.action)) throw badRequest('channel.unsupported_action');
    const action = b.action as KeyAction;
    const count = await channels.manageKeys(b.channel_id, action, b.key_index ?? undefined);
    return withMessage(keyActionText(action, count), action === 'delete_disabled_keys' ? count : undefined);
  });

  restRoute(app, deps, 'GET', '/api/channel/:id', { ...admin, params: idParams }, ({ params }) =>
    channels.get(params.id),
  );
  restRoute(app, deps, 'POST', '/api/channel/', { ...admin, body: createChannelInput }, async ({ body }) => {
    await channels.create(body);
    return undefined;
  });
  restRoute(app, deps, 'PUT', '/api/channel/', { ...admin, body: updateChannelInput }, ({ body }) =>
    channels.update(body),
  );
  restRoute(app, deps, 'DELETE', '/api/channel/disabled', admin, () => channels.removeDisabled());
  restRoute(app, deps, 'DELETE', '/api/channel/:id', { ...admin, params: idParams }, async ({ params }) => {
    await channels.remove(params.id);
    return undefined;
  });
  restRoute(app, deps, 'POST', '/api/channel/batch', { ...admin, body: idsInput }, ({ body }) =>
    channels.removeMany(body.ids),
  );

  restRoute(app, deps, 'POST', '/api/channel/batch/tag', { ...admin, body: batchTagInput }, ({ body }) =>
    channels.batchTag(body.ids, body.tag),
  );
  restRoute(app, deps, 'PUT', '/api/channel/tag', { ...admin, body: editTagInput }, async ({ body }) => {
    await channels.editTag(body);
    return undefined;
  });
  restRoute(app, deps, 'POST', '/api/channel/tag/enabled', { ...admin, body: tagInput }, async ({ body }) => {
    await channels.setTagEnabled(body.tag, true);
    return undefined;
  });
  restRoute(app, deps, 'POST', '/api/channel/tag/disabled', { ...admin, body: tagInput }, async ({ body }) => {
    await channels.setTagEnabled(body.tag, false);
    return undefined;
  });
}
