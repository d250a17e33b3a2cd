import type { ColumnType, Generated } from 'kysely';

/*
 * Column helpers shared by every `*.table.ts`. Booleans are stored as 0/1 integers (portable between SQLite and
 * PostgreSQL), times as unix seconds.
 */

export type Id = Generated<number>;
/** A column with a database default: optional on insert. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
