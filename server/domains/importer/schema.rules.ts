/*
 * Which database an import reads, told by its tables and columns (issue 42): new-api as of today (2026: paid plans,
 * two-factor, passkeys), new-api of the April 2025 console, or one-api. A shape that is none of them is refused
 * before anything is read, with a sentence naming what is missing, never half an import.
 */

export type ShapeKind = 'new-api-2026' | 'new-api-2025' | 'one-api';

export type Shape = { kind: ShapeKind } | { refusal: string };

/** What every shape has, and the importer cannot do without. */
const REQUIRED: Record<string, string[]> = {
  users: ['id', 'username', 'password', 'role', 'status', 'quota'],
  tokens: ['id', 'user_id', 'key', 'status', 'remain_quota'],
  channels: ['id', 'type', 'key', 'status', 'models'],
  options: ['key', 'value'],
};

/** Only new-api's 2026 schema has paid plans (subscriptions came with its 2025-2026 consoles). */
const NEW_API_2026_MARKS = ['subscription_plans', 'user_subscriptions'];

export function detectShape(tables: Map<string, Set<string>>): Shape {
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(REQUIRED)) {
    const have = tables.get(table);
    if (!have) missing.push(`table ${table}`);
    else for (const c of columns) if (!have.has(c)) missing.push(`${table}.${c}`);
  }
  if (missing.length)
    return {
      refusal: `not a new-api or one-api database: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`,
    };
  if (NEW_API_2026_MARKS.some((t) => tables.has(t))) {
    const absent = NEW_API_2026_MARKS.filter((t) => !tables.has(t));
    if (absent.length)
      return { refusal: `a new-api database with paid plans half there: table ${absent.join(', ')} is missing` };
    return { kind: 'new-api-2026' };
  }
  // new-api added channel tags and the setups table; one-api never had them.
  if (tables.has('setups') || tables.get('channels')?.has('tag')) return { kind: 'new-api-2025' };
  return { kind: 'one-api' };
}

export const isNewApi = (kind: ShapeKind) => kind !== 'one-api';
