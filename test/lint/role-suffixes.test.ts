import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * CONTRIBUTING: every file under server/domains/ says its role in its suffix (settle.service.ts,
 * channel-probe.client.ts...), so a newcomer knows what a file may contain before opening it. The
 * suffixes are read from CONTRIBUTING itself: a new role is named there first, then used.
 */
const root = path.resolve(import.meta.dirname, '../..');
const contributing = readFileSync(path.join(root, 'docs/CONTRIBUTING.md'), 'utf8');

/** Files that keep a plain name, each with its reason; a file renamed since drops out (checked below). */
const EXCEPTIONS: Record<string, string> = {
  'server/domains/billing/group-commit.ts': 'a write-batching mechanism with no domain role (billing is its one user)',
  'server/domains/importer/tables/types.ts': 'the contract every table of an import implements (issue 42): types only',
  'server/domains/importer/tables/index.ts': 'the ordered list of an import’s tables (issue 42): one line per table',
};

/** `<area>.repo.ts`, `.view.ts`...: every backquoted role suffix CONTRIBUTING names. */
function documentedSuffixes(text: string): string[] {
  const found = [...text.matchAll(/`(?:<area>)?(\.[a-z]+\.ts)`/g)].map((m) => m[1]);
  return [...new Set(found)];
}

function domainFiles(dir = 'server/domains'): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return domainFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** A service split by verb keeps its verbs in `<area>/service/` (CONTRIBUTING): the folder is their role. */
const isServiceVerb = (file: string) => /^server\/domains\/[^/]+\/service\/[^/]+\.ts$/.test(file);

function withoutRole(files: string[], suffixes: string[]): string[] {
  return files.filter((f) => !suffixes.some((s) => f.endsWith(s)) && !isServiceVerb(f) && !(f in EXCEPTIONS));
}

describe('role suffixes of the domain files', () => {
  const suffixes = documentedSuffixes(contributing);

  it('CONTRIBUTING names the roles', () => {
    // `.table.ts`: a domain's Kysely row types, joined into one `Database` by server/db/types.ts.
    for (const s of [
      '.repo.ts',
      '.service.ts',
      '.router.ts',
      '.rest.ts',
      '.test.ts',
      '.rules.ts',
      '.view.ts',
      '.table.ts',
    ])
      expect(suffixes).toContain(s);
  });

  it('every file under server/domains/ ends in a documented role', () => {
    expect(withoutRole(domainFiles(), suffixes)).toEqual([]);
  });

  it('a plain name fails, a service verb in service/ passes', () => {
    const sample = [
      'server/domains/x/helpers.ts',
      'server/domains/x/x.service.ts',
      'server/domains/x/service/write.ts',
      'server/domains/x/service/deep/write.ts',
    ];
    expect(withoutRole(sample, suffixes)).toEqual([
      'server/domains/x/helpers.ts',
      'server/domains/x/service/deep/write.ts',
    ]);
  });

  it('every exception is still a file with a plain name', () => {
    const files = new Set(domainFiles());
    for (const file of Object.keys(EXCEPTIONS)) {
      expect(files.has(file), `${file} is gone: drop it from EXCEPTIONS`).toBe(true);
      expect(
        suffixes.some((s) => file.endsWith(s)),
        `${file} has a role suffix now`,
      ).toBe(false);
    }
  });
});
