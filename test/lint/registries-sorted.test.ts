import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * CONTRIBUTING: the three registries (services, REST routes, tRPC routers) are one line per area, sorted by
 * area, so a newcomer finds a domain's line at once and two people adding areas do not collide.
 */
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The names of the list after `opening`, up to `closing`: one entry per line at `indent` spaces. */
function entries(source: string, opening: string, closing: string, indent: number): string[] {
  const start = source.indexOf(opening);
  expect(start, `${opening} not found`).toBeGreaterThan(-1);
  const body = source.slice(start + opening.length, source.indexOf(closing, start));
  return body
    .split('\n')
    .map((line) => new RegExp(`^ {${indent}}(\\w+)\\b`).exec(line)?.[1])
    .filter((name): name is string => Boolean(name));
}

const sorted = (names: string[]) => [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

describe('registries sorted by area', () => {
  const registries = [
    { file: 'server/services.ts', opening: '  return {\n', closing: '\n  };', indent: 4 },
    { file: 'server/compat/index.ts', opening: '= [\n', closing: '\n];', indent: 2 },
    { file: 'server/trpc/router.ts', opening: 'router({\n', closing: '\n});', indent: 2 },
  ];
  for (const { file, opening, closing, indent } of registries)
    it(file, () => {
      const names = entries(read(file), opening, closing, indent);
      expect(names.length).toBeGreaterThan(10);
      expect(names).toEqual(sorted(names));
    });
});
