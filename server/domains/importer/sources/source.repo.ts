import { parseSourceSpec } from './dsn.rules.ts';

/*
 * Where an import reads from: a new-api / one-api database on SQLite, MySQL/MariaDB or PostgreSQL. Every dialect
 * hands the mappers the same values (see normalise.rules.ts), so a table importer is written once.
 */

export type SourceDialect = 'sqlite' | 'mysql' | 'postgres';

/** A source row: numbers as numbers, decimals as strings, datetimes as Date or ISO text, JSON columns as text. */
export type Row = Record<string, unknown>;

export interface BatchOptions {
  /** Rows per batch (the runner's transaction size). */
  size: number;
  /** The keyset column: strictly increasing and unique (`id`; `key` for options). */
  orderBy?: string;
}

export interface ImportSource {
  dialect: SourceDialect;
  /** What the operator gave, with any password replaced by `***` (for reports and logs). */
  label: string;
  /** Table -> its columns, as the source database has them. */
  describe(): Promise<Map<string, Set<string>>>;
  count(table: string): Promise<number>;
  /** The table's rows in keyset pages ordered by `orderBy`: constant memory whatever the table's size. */
  batches(table: string, options: BatchOptions): AsyncIterable<Row[]>;
  close(): Promise<void>;
}

/**
 * Opens `spec`: a SQLite file path, a `mysql://` / `postgres://` / `postgresql://` URL, or new-api's own SQL_DSN
 * as its .env holds it (`user:pass@tcp(host:3306)/db?parseTime=true`, `user:pass@unix(/run/mysqld.sock)/db`).
 */
export async function openImportSource(spec: string): Promise<ImportSource> {
  const parsed = parseSourceSpec(spec);
  switch (parsed.dialect) {
    case 'sqlite':
      return (await import('./sqlite.repo.ts')).openSqliteSource(parsed);
    case 'mysql':
      return (await import('./mysql.repo.ts')).openMysqlSource(parsed);
    case 'postgres':
      return (await import('./postgres.repo.ts')).openPostgresSource(parsed);
  }
}
