import { PREFILL_TYPES, type PrefillGroupInput, type PrefillType } from '../../../shared/schemas/model-meta.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, notFound } from '../../errors.ts';
import {
  deletePrefillGroup,
  findPrefillGroup,
  insertPrefillGroup,
  listPrefillGroups,
  prefillNameTaken,
  updatePrefillGroup,
} from './prefill-groups.repo.ts';

/*
 * Prefill groups: named lists an admin form fills in with one click (a set of models for a channel,
 * of tags or endpoints for a model). Names are unique. Model and tag groups hold a list of names;
 * an endpoint group holds whatever JSON new-api's console sends (its editor writes an object as text).
 */

const NAME_MAX = 64;

export interface PrefillGroupView {
  id: number;
  name: string;
  type: string;
  items: unknown;
  description?: string;
  created_time: number;
  updated_time: number;
}

type Row = NonNullable<Awaited<ReturnType<typeof findPrefillGroup>>>;

function parseItems(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const view = (r: Row): PrefillGroupView => ({
  id: Number(r.id),
  name: r.name,
  type: r.type,
  items: parseItems(r.items),
  ...(r.description ? { description: r.description } : {}),
  created_time: Number(r.created_time),
  updated_time: Number(r.updated_time),
});

function itemsText(type: PrefillType, items: unknown): string {
  if (type === 'endpoint') return JSON.stringify(items ?? '');
  const list = items ?? [];
  if (!Array.isArray(list) || !list.every((i) => typeof i === 'string')) throw badRequest('prefill.items_invalid');
  return JSON.stringify([...new Set(list.map((i) => i.trim()).filter(Boolean))]);
}

export type PrefillGroupsService = ReturnType<typeof createPrefillGroupsService>;

export function createPrefillGroupsService(db: Db) {
  function fields(input: PrefillGroupInput) {
    const name = (input.name ?? '').trim();
    const type = (input.type ?? '').trim();
    if (!name || !type) throw badRequest('prefill.name_type_required');
    if (name.length > NAME_MAX) throw badRequest('prefill.name_too_long');
    if (!PREFILL_TYPES.includes(type as PrefillType)) throw badRequest('prefill.type_invalid');
    return {
      name,
      type,
      items: itemsText(type as PrefillType, input.items),
      description: input.description ?? '',
    };
  }

  async function saving(run: () => Promise<number>): Promise<PrefillGroupView> {
    let id: number;
    try {
      id = await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest('prefill.name_taken');
      throw err;
    }
    const row = await findPrefillGroup(db, id);
    if (!row) throw notFound('prefill.not_found');
    return view(row);
  }

  return {
    /** Every group, or those of one type (unknown types list nothing, as a filter would). */
    async list(type: string): Promise<PrefillGroupView[]> {
      return (await listPrefillGroups(db, type.trim())).map(view);
    },

    async create(input: PrefillGroupInput): Promise<PrefillGroupView> {
      const f = fields(input);
      if (await prefillNameTaken(db, f.name)) throw badRequest('prefill.name_taken');
      const now = nowSeconds();
      return saving(() => insertPrefillGroup(db, { ...f, created_time: now, updated_time: now }));
    },

    async update(input: PrefillGroupInput): Promise<PrefillGroupView> {
      if (!input.id) throw badRequest('prefill.id_missing');
      const id = input.id;
      const f = fields(input);
      if (await prefillNameTaken(db, f.name, id)) throw badRequest('prefill.name_taken');
      return saving(async () => {
        if (!(await updatePrefillGroup(db, id, { ...f, updated_time: nowSeconds() })))
          throw notFound('prefill.not_found');
        return id;
      });
    },

    async remove(id: number): Promise<void> {
      if (!(await deletePrefillGroup(db, id))) throw notFound('prefill.not_found');
    },
  };
}
