import { type ExpressionBuilder, type Expression, type SqlBool, sql } from 'kysely';
import { ChannelStatus } from '../../../shared/constants.ts';
import type { Database, Db } from '../../db/types.ts';
import type { ChannelRow } from './channels.table.ts';
import { likePattern } from './channels.repo.ts';

/*
 * The channel table's filtered lists (new-api 2026: GET /api/channel/ and /search with paging,
 * status, type and group filters, and per-type counts). Every list is an offset/limit query with a
 * COUNT beside it; nothing reads the whole table. No rules here.
 */

export interface ChannelFilter {
  /** Matches the id, a name substring or the exact key. */
  keyword?: string;
  /** A substring of the comma-separated model list. */
  model?: string;
  /** One whole entry of the comma-separated group list. */
  group?: string;
  /** 'enabled': status 1; 'disabled': any other status. */
  status?: 'enabled' | 'disabled';
  type?: number;
}

type Where = (eb: ExpressionBuilder<Database, 'channels'>) => Expression<SqlBool>;

function conditions(f: ChannelFilter): Where[] {
  const out: Where[] = [];
  if (f.keyword) {
    const kw = f.keyword;
    const asId = /^\d{1,15}$/.test(kw) ? Number(kw) : -1;
    out.push((e) =>
      e.or([e('id', '=', asId), sql<SqlBool>`${e.ref('name')} like ${likePattern(kw)} escape '\\'`, e('key', '=', kw)]),
    );
  }
  if (f.model) out.push((e) => sql<SqlBool>`${e.ref('models')} like ${likePattern(f.model!)} escape '\\'`);
  if (f.group)
    out.push(() => sql<SqlBool>`(',' || ${sql.ref('group')} || ',') like ${likePattern(`,${f.group},`)} escape '\\'`);
  if (f.status === 'enabled') out.push((e) => e('status', '=', ChannelStatus.Enabled));
  if (f.status === 'disabled') out.push((e) => e('status', '!=', ChannelStatus.Enabled));
  if (f.type !== undefined) out.push((e) => e('type', '=', f.type!));
  return out;
}

const untagged: Where = (e) => e.or([e('tag', 'is', null), e('tag', '=', '')]);

function matching(db: Db, f: ChannelFilter, extra: Where[] = []) {
  const all = [...conditions(f), ...extra];
  return db.selectFrom('channels').$if(all.length > 0, (q) => q.where((e) => e.and(all.map((w) => w(e)))));
}

const ordered = (idSort: boolean) =>
  idSort
    ? ([['id', 'desc']] as const)
    : ([
        ['priority', 'desc'],
        ['id', 'desc'],
      ] as const);

function sorted(db: Db, f: ChannelFilter, idSort: boolean, extra: Where[] = []) {
  let q = matching(db, f, extra).selectAll();
  for (const [col, dir] of ordered(idSort)) q = q.orderBy(col, dir);
  return q;
}

const counted = async (q: ReturnType<typeof matching>) =>
  Number((await q.select((e) => e.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow()).n);

export const pageFilteredChannels = (db: Db, f: ChannelFilter, offset: number, limit: number, idSort: boolean) =>
  sorted(db, f, idSort).offset(offset).limit(limit).execute();

export const countFilteredChannels = (db: Db, f: ChannelFilter) => counted(matching(db, f));

/** Channel type -> number of matching channels (the console's type tabs). */
export async function countChannelTypes(db: Db, f: ChannelFilter): Promise<Record<number, number>> {
  const rows = await matching(db, f)
    .select((e) => ['type', e.fn.countAll<string | number>().as('n')])
    .groupBy('type')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
}

/** Distinct non-empty tags of the matching channels, sorted (tag mode pages over them). */
export const listFilteredTags = (db: Db, f: ChannelFilter) =>
  matching(db, f, [(e) => e.and([e('tag', 'is not', null), e('tag', '!=', '')])])
    .select('tag')
    .distinct()
    .orderBy('tag')
    .execute()
    .then((rows) => rows.map((r) => r.tag as string));

/** The channels of `tags` that match `f`. */
export const listFilteredChannelsOfTags = (db: Db, f: ChannelFilter, tags: string[], idSort: boolean) =>
  tags.length === 0
    ? Promise.resolve([] as ChannelRow[])
    : sorted(db, f, idSort, [(e) => e('tag', 'in', tags)]).execute();

export const pageFilteredUntagged = (db: Db, f: ChannelFilter, offset: number, limit: number, idSort: boolean) =>
  sorted(db, f, idSort, [untagged]).offset(offset).limit(limit).execute();

export const countFilteredUntagged = (db: Db, f: ChannelFilter) => counted(matching(db, f, [untagged]));

/** The model lists of a tag's channels (GET /api/channel/tag/models picks the longest). */
export const listTagModelLists = (db: Db, tag: string) =>
  db
    .selectFrom('channels')
    .select('models')
    .where('tag', '=', tag)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => r.models));
