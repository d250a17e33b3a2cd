import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * Subscription plans (issue 32), in new-api's table and column names so an import maps them one to one:
 * `subscription_plans` (what an admin sells: a price, a duration, quota per period), `subscription_orders`
 * (a payment under way, completed once by the gateway's signed notice) and `user_subscriptions` (a user's
 * plan: its quota pool for the current period, `amount_used` counting up to `amount_total`). The reset
 * period is copied onto the user's row at purchase, so an edited plan never changes what was sold.
 * A reservation remembers which pool it came from (`subscription_id`, 0 = the wallet) so a refund or a
 * crash recovery gives it back there. Frozen in time: never import application code here.
 */

function withId<T extends string>(db: Kysely<unknown>, table: T): CreateTableBuilder<T, 'id'> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return pg
    ? db.schema.createTable(table).addColumn('id', 'bigserial', (c) => c.primaryKey())
    : db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, 'subscription_plans')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('subtitle', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price_amount', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('duration_unit', 'text', (c) => c.notNull().defaultTo('month'))
    .addColumn('duration_value', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('custom_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_purchase_per_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('upgrade_group', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('total_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('quota_reset_period', 'text', (c) => c.notNull().defaultTo('never'))
    .addColumn('quota_reset_custom_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('stripe_price_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('creem_product_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, 'subscription_orders')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('plan_id', 'bigint', (c) => c.notNull())
    .addColumn('money', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('trade_no', 'text', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('create_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('complete_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('provider_payload', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('subscription_orders_trade_no_uq')
    .on('subscription_orders')
    .column('trade_no')
    .unique()
    .execute();

  await withId(db, 'user_subscriptions')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('plan_id', 'bigint', (c) => c.notNull())
    .addColumn('amount_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('end_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('order'))
    .addColumn('quota_reset_period', 'text', (c) => c.notNull().defaultTo('never'))
    .addColumn('quota_reset_custom_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_reset_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('next_reset_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('upgrade_group', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('prev_user_group', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('user_subscriptions_user_idx')
    .on('user_subscriptions')
    .columns(['user_id', 'status'])
    .execute();
  await db.schema
    .createIndex('user_subscriptions_due_idx')
    .on('user_subscriptions')
    .columns(['status', 'end_time'])
    .execute();

  await db.schema
    .alterTable('quota_reservations')
    .addColumn('subscription_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('quota_reservations').dropColumn('subscription_id').execute();
  await db.schema.dropTable('user_subscriptions').execute();
  await db.schema.dropTable('subscription_orders').execute();
  await db.schema.dropTable('subscription_plans').execute();
}
