/*
 * new-api's and one-api's tables as GORM's AutoMigrate creates them, on each database an operator runs. A
 * column is described as new-api's model declares it (the Go type and the `gorm:"..."` tag's type, default,
 * not null, unique), and rendered the way GORM's dialectors do: a Go string with no size is `longtext` on MySQL
 * (`varchar(191)` when it is indexed, a key or has a default), `text` elsewhere; a Go int is `bigint` on MySQL and
 * PostgreSQL and `integer` on SQLite; a bool is `boolean`, or `numeric` on SQLite; a float64 is `double`, `decimal`
 * on PostgreSQL, `real` on SQLite; a time is `datetime(3)`, `timestamptz` on PostgreSQL, `datetime` on SQLite. An
 * explicit `type:` is written as is, as GORM does.
 */

export type FixtureDialect = 'sqlite' | 'mariadb' | 'postgres';

/** The Go type of a field (what GORM maps when the tag names no type). */
export type GoType = 'int' | 'uint' | 'int64' | 'string' | 'bool' | 'float' | 'time' | 'deleted';

export interface Column {
  name: string;
  go: GoType;
  /** The tag's `type:` (varchar(64), text, json, char(32), decimal(10,6), bigint...). */
  type?: string;
  /** The tag's `default:` as written there ('default' with its quotes, 0, true). */
  default?: string;
  notNull?: boolean;
  /** `unique` / `uniqueIndex` on this column alone. */
  unique?: boolean;
  /** `index` on this column (matters for MySQL's varchar(191) and for the index GORM creates). */
  index?: boolean;
  primaryKey?: boolean;
}

export interface Table {
  name: string;
  columns: Column[];
  /** `id` is the auto-increment key unless the table has a composite or a string key. */
  autoId?: boolean;
  /** Composite unique indexes (GORM's `uniqueIndex:name` on several fields). */
  uniques?: string[][];
}

/** Column shorthands, named after the Go type; the options are the tag's settings. */
type Opts = Omit<Column, 'name' | 'go'>;
const col =
  (go: GoType) =>
  (name: string, opts: Opts = {}): Column => ({ name, go, ...opts });
export const c = {
  int: col('int'),
  uint: col('uint'),
  int64: col('int64'),
  str: col('string'),
  bool: col('bool'),
  float: col('float'),
  time: col('time'),
  deleted: (): Column => ({ name: 'deleted_at', go: 'deleted', index: true }),
};

export function quoteName(dialect: FixtureDialect, name: string): string {
  return dialect === 'mariadb' ? `\`${name}\`` : `"${name}"`;
}

function sqlType(dialect: FixtureDialect, column: Column): string {
  if (column.type) {
    // SQLite takes any type name; PostgreSQL has no `double` (new-api declares none for it on purpose).
    if (dialect === 'postgres' && column.type === 'double') return 'double precision';
    return column.type;
  }
  const keyed = column.index || column.unique || column.primaryKey || column.default !== undefined;
  switch (column.go) {
    case 'int':
    case 'int64':
      return dialect === 'sqlite' ? 'integer' : 'bigint';
    case 'uint':
      return dialect === 'sqlite' ? 'integer' : dialect === 'mariadb' ? 'bigint unsigned' : 'bigint';
    case 'string':
      if (dialect === 'mariadb') return keyed ? 'varchar(191)' : 'longtext';
      return 'text';
    case 'bool':
      return dialect === 'sqlite' ? 'numeric' : 'boolean';
    case 'float':
      return dialect === 'sqlite' ? 'real' : dialect === 'mariadb' ? 'double' : 'decimal';
    case 'time':
    case 'deleted':
      return dialect === 'sqlite' ? 'datetime' : dialect === 'mariadb' ? 'datetime(3)' : 'timestamptz';
  }
}

/** CREATE TABLE and CREATE INDEX statements for one table on one dialect. */
export function createTableSql(dialect: FixtureDialect, table: Table): string[] {
  const q = (n: string) => quoteName(dialect, n);
  const defs: string[] = [];
  const pk = table.columns.filter((x) => x.primaryKey).map((x) => x.name);
  const autoId = table.autoId !== false && pk.length === 0;
  if (autoId) {
    defs.push(
      dialect === 'sqlite'
        ? `${q('id')} integer PRIMARY KEY AUTOINCREMENT`
        : dialect === 'mariadb'
          ? `${q('id')} bigint AUTO_INCREMENT`
          : `${q('id')} bigserial`,
    );
  }
  for (const column of table.columns) {
    let def = `${q(column.name)} ${sqlType(dialect, column)}`;
    if (column.notNull) def += ' NOT NULL';
    if (column.default !== undefined) def += ` DEFAULT ${column.default}`;
    defs.push(def);
  }
  if (autoId && dialect !== 'sqlite') defs.push(`PRIMARY KEY (${q('id')})`);
  if (pk.length) defs.push(`PRIMARY KEY (${pk.map(q).join(',')})`);
  const indexes: { name: string; columns: string[]; unique: boolean }[] = [];
  for (const column of table.columns) {
    if (column.primaryKey) continue;
    // MySQL cannot index a text column without a prefix length; GORM's indexed strings there are varchar(191).
    if (column.unique || (column.index && !(dialect === 'mariadb' && /text$/.test(sqlType(dialect, column)))))
      indexes.push({ name: `idx_${table.name}_${column.name}`, columns: [column.name], unique: !!column.unique });
  }
  for (const names of table.uniques ?? [])
    indexes.push({ name: `uk_${table.name}_${names.join('_')}`, columns: names, unique: true });
  // GORM's MySQL dialect declares indexes inside CREATE TABLE; the others create them after it.
  if (dialect === 'mariadb')
    for (const i of indexes)
      defs.push(`${i.unique ? 'UNIQUE ' : ''}INDEX ${q(i.name)} (${i.columns.map(q).join(',')})`);
  const statements = [`CREATE TABLE ${q(table.name)} (${defs.join(', ')})`];
  if (dialect !== 'mariadb')
    for (const i of indexes)
      statements.push(
        `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${q(i.name)} ON ${q(table.name)} (${i.columns.map(q).join(',')})`,
      );
  return statements;
}
