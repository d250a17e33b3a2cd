import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * The model marketplace's metadata (issue 32), in new-api's table names so an import can map them
 * one to one: `vendors` (a model's maker, with an icon), `models` (what the pricing page shows about
 * a model: description, tags, vendor, icon, endpoints; matched to served models by name rule) and
 * `prefill_groups` (named lists of models, tags or endpoints the admin forms fill in with one click).
 * None of it changes how a call is routed or billed. Frozen in time: never import application code here.
 */

function withId<T extends string>(db: Kysely<unknown>, table: T): CreateTableBuilder<T, 'id'> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return pg
    ? db.schema.createTable(table).addColumn('id', 'bigserial', (c) => c.primaryKey())
    : db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, 'vendors')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('vendors_name_uq').on('vendors').column('name').unique().execute();

  await withId(db, 'models')
    .addColumn('model_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('vendor_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('endpoints', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name_rule', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sync_official', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('models_model_name_uq').on('models').column('model_name').unique().execute();
  await db.schema.createIndex('models_vendor_id_idx').on('models').column('vendor_id').execute();

  await withId(db, 'prefill_groups')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('prefill_groups_name_uq').on('prefill_groups').column('name').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('prefill_groups').execute();
  await db.schema.dropTable('models').execute();
  await db.schema.dropTable('vendors').execute();
}
