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
import { contractOf, pagedQuery, pageObject } from '../../compat/contract.ts';
import { decodeQuery } from '../../compat/go-decode.ts';
import { q, raw, restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { badRequest } from '../../errors.ts';
import { keyActionText } from './multi-key.view.ts';
import type { ChannelFilter } from './service/filtered-list.ts';

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

/** 2026: GetPageQuery paging plus the filters today's console sends (hooks/channels/useChannelsData.jsx). */
const filteredQuery = pagedQuery({
  keyword: q.str().transform((v) => v.trim()),
  group: q.str().transform((v) => v.trim()),
  model: q.str().transform((v) => v.trim()),
  status: q.str(),
  type: q.str(),
  id_sort: q.bool(),
  tag_mode: q.bool(),
});

/** new-api's filter words: status enabled/1 or disabled/0 (any other status), else all; a type id or all. */
function filterOf(v: z.output<typeof filteredQuery>): ChannelFilter {
  const status = ['enabled', '1'].includes(v.status)
    ? 'enabled'
    : ['disabled', '0'].includes(v.status)
      ? 'disabled'
      : undefined;
  const type = /^\d+$/.test(v.type.trim()) ? Number(v.type) : undefined;
  const group = ['', 'null', 'all'].includes(v.group) ? undefined : v.group;
  return { keyword: v.keyword || undefined, model: v.model || undefined, group, status, type };
}

const idParams = z.object({ id: q.id() });
const tagQuery = z.object({ tag: q.str() });
const copyQuery = z.object({
  suffix: z.preprocess((v) => (v === undefined ? '_复制' : v), z.string().max(64)),
  reset_balance: z.preprocess((v) => v === undefined || v === 'true' || v === '1', z.boolean()),
});
const testQuery = z.object({ model: q.str().transform((v) => v.trim()) });

export function registerChannelRoutes(app: FastifyInstance, deps: AppDeps) {
  const { channels } = deps.services;
  const admin = { auth: 'admin' } as const;

  /** 2026: the list and the search are one filtered page: `{items, total, page, page_size, type_counts}`. */
  const filteredPage = async (raw: unknown, search: boolean) => {
    const query = decodeQuery(filteredQuery, raw);
    const filter = filterOf(query);
    const r = await channels.filteredPage({
      // The list has no keyword or model filter; the search has them all.
      filter: search ? filter : { ...filter, keyword: undefined, model: undefined },
      offset: query.paging.offset,
      limit: query.paging.pageSize,
      idSort: query.id_sort,
      tagMode: query.tag_mode,
    });
    return { ...pageObject(r.items, r.total, query.paging), type_counts: r.type_counts };
  };
  restRoute(app, deps, 'GET', '/api/channel/', admin, ({ req }) => {
    if (contractOf(deps) === '2026') return filteredPage(req.query, false);
    const query = decodeQuery(pageQuery, req.query);
    return channels.page({ page: query.p, pageSize: query.page_size, idSort: query.id_sort, tagMode: query.tag_mode });
  });
  restRoute(app, deps, 'GET', '/api/channel/search', admin, ({ req }) => {
    if (contractOf(deps) === '2026') return filteredPage(req.query, true);
    const query = decodeQuery(searchQuery, req.query);
    return channels.search({ ...query, idSort: query.id_sort, tagMode: query.tag_mode });
  });
  // 2026: the longest model list among a tag's channels (the tag edit form's starting point).
  restRoute(app, deps, 'GET', '/api/channel/tag/models', { ...admin, query: tagQuery }, ({ query }) =>
    channels.tagModels(query.tag),
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

  // 2026's console reads `{success, fails}` (channels rebuilt, channels that failed); April 2025 a count.
  restRoute(app, deps, 'POST', '/api/channel/fix', admin, async () => {
    const fixed = await channels.fixAbilities();
    return contractOf(deps) === '2026' ? { success: fixed, fails: 0 } : fixed;
  });

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
