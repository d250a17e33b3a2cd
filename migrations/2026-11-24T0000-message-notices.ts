import type { Kysely } from 'kysely';

/**
 * messages.notice: for a notice the server sent itself (a channel disabled, a newer release), the
 * registry code and parameters of its title and content as JSON (shared/stored-message.ts), so the
 * console shows it in its own language; the title and content keep the Chinese words. Empty for
 * messages an administrator wrote.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('messages')
    .addColumn('notice', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('notice').execute();
}
