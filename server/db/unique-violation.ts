/** A unique-index violation on SQLite or PostgreSQL (two requests racing for one name, key or use). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | undefined;
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === '23505';
}
