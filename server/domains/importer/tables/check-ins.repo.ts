import { moveSequenceOnPostgres } from './target-sequence.repo.ts';
import type { Row, Skipped, TableImporter } from './types.ts';
import { upsertById } from './upsert.repo.ts';
import { int, str, unixSeconds } from './values.rules.ts';

/*
 * Daily check-ins (new-api's checkins: one per user and day, the quota it gave): kept so a user who checked in
 * today before the move cannot check in a second time today after it.
 */
const mapCheckIn = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  day: str(r.checkin_date),
  quota: int(r.quota_awarded),
  created_at: unixSeconds(r.created_at) ?? 0,
});

export const checkInsImporter: TableImporter = {
  name: 'check_ins',
  sourceTable: 'checkins',
  optional: true,
  async importBatch(trx, rows) {
    const mapped = rows.map(mapCheckIn);
    // (user, day) is unique here: a day this install already recorded under another id is not written twice.
    const taken = new Map<string, number>();
    if (mapped.length)
      for (const e of await trx
        .selectFrom('check_ins')
        .select(['id', 'user_id', 'day'])
        .where(
          'user_id',
          'in',
          mapped.map((m) => m.user_id),
        )
        .where(
          'day',
          'in',
          mapped.map((m) => m.day),
        )
        .execute())
        taken.set(`${e.user_id}|${e.day}`, Number(e.id));
    const skipped: Skipped[] = [];
    const fresh = mapped.filter((m) => {
      const owner = taken.get(`${m.user_id}|${m.day}`);
      if (owner !== undefined && owner !== m.id) {
        skipped.push({ id: m.id, reason: `user #${m.user_id} already checked in on ${m.day} here (#${owner})` });
        return false;
      }
      return true;
    });
    const result = await upsertById(trx, 'check_ins', fresh);
    return { imported: result.imported, skipped: [...skipped, ...result.skipped] };
  },
  finish: moveSequenceOnPostgres('check_ins'),
};
