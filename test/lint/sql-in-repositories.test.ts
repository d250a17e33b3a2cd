import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * "Repositories own SQL" (CONTRIBUTING) is enforced by the lint: a Kysely statement or raw `sql`
 * in a server file that is not a *.repo.ts fails `npx eslint`, so a build that adds one fails.
 */
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

async function sqlErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports');
}

const builderQuery = `import type { Db } from '../../db/types.ts';
export const findThing = (db: Db, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
`;
const rawQuery = `import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
export const ping = (db: Db) => sql\`select 1\`.execute(db);
`;

describe('the lint rule "SQL only in repositories"', () => {
  it('fails a service, a route or a relay module that writes a query', async () => {
    for (const file of ['server/domains/x/x.service.ts', 'server/domains/x/x.rest.ts', 'server/relay/x.ts']) {
      const errors = await sqlErrors(file, builderQuery);
      expect(
        errors.map((e) => e.message),
        file,
      ).toEqual(['SQL belongs in a repository (*.repo.ts): call a repository function from here.']);
    }
    const raw = await sqlErrors('server/domains/x/x.service.ts', rawQuery);
    expect(raw.map((e) => e.ruleId).sort()).toEqual(['no-restricted-imports', 'no-restricted-syntax']);
    for (const write of ["db.insertInto('logs')", "db.updateTable('users')", "db.deleteFrom('tokens')"]) {
      const errors = await sqlErrors('server/ops/x.ts', `declare const db: any;\nvoid ${write};\n`);
      expect(errors, write).toHaveLength(1);
    }
  });

  it('lets repositories, the database layer and tests write SQL', async () => {
    for (const file of [
      'server/domains/x/x.repo.ts',
      'server/db/x.ts',
      'server/domains/x/x.test.ts',
      'server/relay/tests/x.ts',
    ]) {
      expect(await sqlErrors(file, builderQuery), file).toEqual([]);
      expect(await sqlErrors(file, rawQuery), file).toEqual([]);
    }
  });
});
