import { randomBytes } from 'node:crypto';
import { RedemptionStatus } from '../../../shared/constants.ts';
import type {
  CreateRedemptionInput,
  RedemptionStatusInput,
  UpdateRedemptionInput,
} from '../../../shared/schemas/redemptions.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import type { RedemptionRow } from './redemptions.table.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { createRedeemService } from './redeem.service.ts';
import {
  countRedemptionsByName,
  disableRedemptions,
  findRedemptionById,
  insertRedemptions,
  keyExists,
  listRedemptions,
  softDeleteInvalidRedemptions,
  softDeleteRedemptions,
  updateRedemption,
  usernamesByIds,
} from './redemptions.repo.ts';
import { redemptionView } from './redemptions.view.ts';

export type RedemptionsService = ReturnType<typeof createRedemptionsService>;

/** 32 hex characters from the CSPRNG: a code is a bearer secret worth its quota. */
export const newRedemptionKey = () => randomBytes(16).toString('hex');

/** Admin management of redemption codes, plus redeeming (in redeem.service.ts). */
export function createRedemptionsService(infra: Pick<Infra, 'db' | 'bus' | 'rateLimits'>, options: OptionsService) {
  const { db } = infra;
  async function mustFind(id: number) {
    const row = await findRedemptionById(db, id);
    if (!row) throw notFound('redemption.not_found');
    return row;
  }
  /** Rows as answered, each with its redeemer's username (one lookup for the whole page). */
  async function views(rows: RedemptionRow[]) {
    const names = await usernamesByIds(
      db,
      rows.map((r) => r.used_user_id),
    );
    return rows.map((r) => redemptionView(r, names.get(r.used_user_id)));
  }
  async function viewOf(id: number) {
    const [view] = await views([await mustFind(id)]);
    if (!view) throw notFound('redemption.not_found');
    return view;
  }

  return {
    redeem: createRedeemService(infra, options).redeem,

    /**
     * new-api's redemption paging: `page` is echoed as sent, and pages 0 and 1 are
     * both the first page (legacy consoles send p=0 first).
     */
    async list(keyword: string, page: number, pageSize: number) {
      const p = Math.max(page, 0);
      const size = pageSize < 1 ? 10 : Math.min(pageSize, 100);
      const { items, total } = await listRedemptions(db, keyword, Math.max(p - 1, 0) * size, size);
      return { items: await views(items), total, page: p, page_size: size };
    },

    /** One range of codes (newest first, optional keyword) with the total that matches. */
    async listRange(keyword: string, offset: number, limit: number) {
      const { items, total } = await listRedemptions(db, keyword, offset, limit);
      return { items: await views(items), total };
    },

    get: viewOf,

    /** Returns the generated keys, in creation order. */
    async create(input: CreateRedemptionInput): Promise<string[]> {
      if (input.key !== undefined && (await keyExists(db, input.key))) throw conflict('redemption.key_taken');
      const now = nowSeconds();
      const keys = input.key !== undefined ? [input.key] : Array.from({ length: input.count }, newRedemptionKey);
      const rows = keys.map((key) => ({
        key,
        name: input.name,
        quota: input.quota,
        is_gift: input.is_gift ? 1 : 0,
        max_uses: input.max_uses,
        valid_from: input.valid_from,
        valid_until: input.valid_until,
        status: RedemptionStatus.Unused,
        created_time: now,
      }));
      try {
        await insertRedemptions(db, rows);
      } catch (err) {
        // Another request took the same custom key between the check and the insert.
        if (isUniqueViolation(err)) throw conflict('redemption.key_taken');
        throw err;
      }
      return keys;
    },

    /** A full edit is allowed only while the code is unused: a used code is a record of what happened. */
    async update(input: UpdateRedemptionInput) {
      const row = await mustFind(input.id);
      if (row.status !== RedemptionStatus.Unused) throw badRequest('redemption.edit_unused_only');
      const changed = await updateRedemption(
        db,
        input.id,
        {
          name: input.name,
          quota: input.quota,
          is_gift: input.is_gift ? 1 : 0,
          max_uses: input.max_uses,
          valid_from: input.valid_from,
          valid_until: input.valid_until,
        },
        RedemptionStatus.Unused,
      );
      // It was redeemed or disabled while the admin was editing.
      if (changed === 0) throw badRequest('redemption.edit_unused_only');
      return viewOf(input.id);
    },

    async setStatus(input: RedemptionStatusInput) {
      const row = await mustFind(input.id);
      if (row.status === RedemptionStatus.Used) throw badRequest('redemption.used_no_status');
      const changed = await updateRedemption(db, input.id, { status: input.status }, row.status);
      if (changed === 0) throw badRequest('redemption.used_no_status');
      return viewOf(input.id);
    },

    async remove(id: number) {
      if ((await softDeleteRedemptions(db, { id })) === 0) throw notFound('redemption.not_found');
    },

    /** Disables the selected codes that are still unused; answers how many changed. */
    batchDisable: (ids: number[]) => disableRedemptions(db, [...new Set(ids)]),

    deleteDisabled: () => softDeleteRedemptions(db, { status: RedemptionStatus.Disabled }),

    /** Used, disabled and expired codes (and spent gift codes); answers how many were deleted. */
    deleteInvalid: () => softDeleteInvalidRedemptions(db, nowSeconds()),

    countByName: (name: string) => countRedemptionsByName(db, name),

    deleteByName: (name: string) => softDeleteRedemptions(db, { name }),
  };
}
