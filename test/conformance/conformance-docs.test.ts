import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DELIBERATE_REFUSALS } from './deliberate-refusals.ts';
import { casesFor } from './matrix.ts';
import { docSkeleton, renderConformanceDocs } from './render.ts';

/*
 * docs/conformance.md holds the outcomes of the last run, which a test cannot know in advance; what it
 * can hold the page to is the suite's shape: the same doors, cases, upstreams, client shapes and the
 * whole list of deliberate refusals. Run the suite and `npm run docs:conformance` after changing them.
 */
describe('docs/conformance.md', () => {
  it("has the suite's doors, cases, upstreams, client shapes and refusals", () => {
    const committed = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
    expect(docSkeleton(committed)).toBe(docSkeleton(renderConformanceDocs({ doors: {} })));
  });

  it('lists every deliberate refusal with its reason', () => {
    const committed = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
    for (const r of DELIBERATE_REFUSALS) expect(committed).toContain(r.reason);
  });

  it('names only cells that exist in deliberate-refusals.ts', () => {
    for (const r of DELIBERATE_REFUSALS) if ('door' in r) expect(casesFor(r.door).map((c) => c.id)).toContain(r.case);
  });
});
