/*
 * docs/conformance.md and the CI printout, rendered from the suite's last results
 * (test-artifacts/conformance/*.json). Pure: the same results give the same page.
 */
import { readFileSync } from 'node:fs';
import { type AgentMatrixResults, readAgentResults } from '../agents/matrix.ts';
import { AGENT_FAILING_HEADING, agentLastRun, agentSection, renderAgentText } from '../agents/render.ts';
import { DELIBERATE_REFUSALS, type DeliberateRefusal } from './deliberate-refusals.ts';
import {
  appliesTo,
  CASES,
  casesFor,
  CLIENT_SHAPES,
  type ClientShapeId,
  type DoorId,
  DOORS,
  doorLabel,
  UPSTREAMS,
  type UpstreamId,
  upstreamLabel,
} from './matrix.ts';
import { typeCounts, typeFailing, typeRows, typeSection, typeText } from './channel-types/render.ts';
import { imageSection } from './image-matrix.ts';
import { videoSection } from './video-matrix.ts';
import {
  type DoorResults,
  type Outcome,
  readDoorResults,
  readShapeResults,
  readTypeResults,
  type ShapeResults,
  type TypeResults,
} from './results.ts';

export interface AllResults {
  doors: Partial<Record<DoorId, DoorResults>>;
  shapes?: ShapeResults;
  /** The channel-type suite (channel-types.test.ts). */
  types?: TypeResults;
  /** The real agent clients' matrix (test/agents/). */
  agents?: AgentMatrixResults;
}

export function readAllResults(): AllResults {
  const doors: AllResults['doors'] = {};
  for (const d of DOORS) {
    const r = readDoorResults(d.id);
    if (r) doors[d.id] = r;
  }
  return { doors, shapes: readShapeResults(), types: readTypeResults(), agents: readAgentResults() };
}

/** `n/a`: the case has no cell for this upstream (matrix.ts `upstreams`); not counted. */
type Mark = Outcome | 'not run' | 'n/a';

interface Row {
  label: string;
  cells: { upstream: UpstreamId; mark: Mark; error?: string; refusal?: number }[];
}

/** The footnote number of a refusal (its place in DELIBERATE_REFUSALS, from 1). */
const noteOf = (r: DeliberateRefusal | undefined) => (r ? DELIBERATE_REFUSALS.indexOf(r) + 1 : undefined);

/** Request ids and other per-run noise out of an error line, so the page only changes when outcomes do. */
const steady = (s: string) => s.replace(/\s*\(request id: [^)]*\)/g, '').replace(/req_[A-Za-z0-9]+/g, 'req_…');

function doorRows(door: DoorId, res: DoorResults | undefined): Row[] {
  return casesFor(door).map((c) => ({
    label: c.label,
    cells: UPSTREAMS.map((u) => {
      if (!appliesTo(c, u.id)) return { upstream: u.id, mark: 'n/a' as const };
      const cell = res?.cells.find((x) => x.upstream === u.id && x.case === c.id);
      if (!cell) return { upstream: u.id, mark: 'not run' as const };
      const refusal = DELIBERATE_REFUSALS.find(
        (r) => 'door' in r && r.door === door && r.upstream === u.id && r.case === c.id,
      );
      return {
        upstream: u.id,
        mark: cell.outcome,
        error: cell.error && steady(cell.error),
        refusal: cell.outcome === 'refused' ? noteOf(refusal) : undefined,
      };
    }),
  }));
}

/** The client, with its version, a recorded shape comes from (its fixture's `client`). */
const clientOf = (id: ClientShapeId) =>
  (JSON.parse(readFileSync(new URL(`fixtures/${id}.json`, import.meta.url), 'utf8')) as { client: string }).client;

function shapeRows(res: ShapeResults | undefined): Row[] {
  return CLIENT_SHAPES.map((s) => ({
    label: `${clientOf(s.id)} (${doorLabel(s.door)} door)`,
    cells: UPSTREAMS.map((u) => {
      const cell = res?.cells.find((x) => x.shape === s.id && x.upstream === u.id);
      if (!cell) return { upstream: u.id, mark: 'not run' as const };
      const refusal = DELIBERATE_REFUSALS.find(
        (r) => 'shape' in r && r.shape === (s.id as ClientShapeId) && r.upstream === u.id,
      );
      return {
        upstream: u.id,
        mark: cell.outcome,
        error: cell.error && steady(cell.error),
        refusal: cell.outcome === 'refused' ? noteOf(refusal) : undefined,
      };
    }),
  }));
}

const SYMBOL: Record<Mark, string> = { pass: '✓', refused: 'refused', fail: '✗', 'not run': '·', 'n/a': '—' };

function cellText(c: Row['cells'][number]) {
  return c.mark === 'refused' && c.refusal ? `refused [${c.refusal}]` : SYMBOL[c.mark];
}

function table(first: string, rows: Row[]): string[] {
  return [
    `| ${first} | ${UPSTREAMS.map((u) => u.label).join(' | ')} |`,
    `|---|${UPSTREAMS.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.label} | ${r.cells.map(cellText).join(' | ')} |`),
  ];
}

function count(rows: Row[]) {
  const n: Record<Mark, number> = { pass: 0, refused: 0, fail: 0, 'not run': 0, 'n/a': 0 };
  for (const r of rows) for (const c of r.cells) n[c.mark]++;
  return n;
}

function refusalWhere(r: DeliberateRefusal) {
  const up = UPSTREAMS.find((u) => u.id === r.upstream)!.label;
  if ('shape' in r) return `${CLIENT_SHAPES.find((s) => s.id === r.shape)!.label} › ${up}`;
  return `${doorLabel(r.door)} › ${up} › ${CASES.find((c) => c.id === r.case)!.label}`;
}

/** docs/conformance.md. */
export function renderConformanceDocs(all: AllResults): string {
  const sections = DOORS.map((d) => ({ door: d, rows: doorRows(d.id, all.doors[d.id]) }));
  const shapes = shapeRows(all.shapes);
  const failing = [
    ...sections.flatMap((s) =>
      s.rows.flatMap((r) =>
        r.cells
          .filter((c) => c.mark === 'fail')
          .map(
            (c) =>
              `- ${s.door.label} › ${UPSTREAMS.find((u) => u.id === c.upstream)!.label} › ${r.label}: ${c.error ?? ''}`,
          ),
      ),
    ),
    ...shapes.flatMap((r) =>
      r.cells
        .filter((c) => c.mark === 'fail')
        .map((c) => `- ${r.label} › ${UPSTREAMS.find((u) => u.id === c.upstream)!.label}: ${c.error ?? ''}`),
    ),
    ...typeFailing(all.types).map(steady),
  ].map((line) => line.replace(/\|/g, '\\|'));
  const runs = [...Object.values(all.doors).map((r) => r.finishedAt), all.shapes?.finishedAt, all.types?.finishedAt]
    .filter(Boolean)
    .sort();
  const summary = [
    ...sections.map((s) => ({ label: s.door.label, n: count(s.rows) })),
    {
      label: 'Recorded client shapes',
      n: count(shapes),
    },
    { label: 'Channel types', n: { ...typeCounts(typeRows(all.types)), 'n/a': 0 } },
  ];
  return [
    '# Conformance matrix',
    '',
    '<!-- Generated by `npm run docs:conformance` from the last run of the conformance suite (test/conformance/). Do not edit. -->',
    '',
    'Every front door, spoken by its official SDK, against a strict fake upstream of every dialect: fakes that',
    'refuse what the real APIs refuse (unknown fields, orphan tool results, missing signatures, unsupported',
    'schema keywords, wrong parameters for reasoning models) with the real error bodies',
    '(`scripts/fake-upstream/strict/`). Each cell is one test, `door > upstream > case`, run through the real',
    'gateway; see [conversion.md](conversion.md) for how the conversion works.',
    '',
    "✓ passes · ✗ fails · **refused [n]** a deliberate refusal in the caller's dialect (reason n below) · `·` not run · — no such cell (the case is about one upstream's wire shape)",
    '',
    '## Summary',
    '',
    runs.length ? `Last run finished ${runs.at(-1)}.` : 'No run recorded yet.',
    '',
    '| | pass | refused | fail | not run |',
    '|---|---|---|---|---|',
    ...summary.map((s) => `| ${s.label} | ${s.n.pass} | ${s.n.refused} | ${s.n.fail} | ${s.n['not run']} |`),
    '',
    ...sections.flatMap((s) => [
      `## ${s.door.label} door`,
      '',
      `\`${s.door.endpoint}\`, with the ${s.door.sdk} SDK.`,
      '',
      ...table('case', s.rows),
      '',
    ]),
    '## Recorded client shapes',
    '',
    'Request bodies and headers captured from the real clients, run headless with their default settings against',
    'a recording upstream (ids, paths and keys normalized; the chat app is hand-written): `test/conformance/fixtures/`,',
    "sent raw through their door to every upstream; a cell passes on a 200 with a well-formed answer in the door's dialect.",
    '',
    ...table('client', shapes),
    '',
    ...typeSection(all.types),
    ...videoSection(),
    ...imageSection(),
    '## Deliberate refusals',
    '',
    ...(DELIBERATE_REFUSALS.length
      ? DELIBERATE_REFUSALS.map((r, i) => `${i + 1}. ${refusalWhere(r)}: ${r.reason}`)
      : ['None: every cell is expected to pass.']),
    '',
    '## Failing cells',
    '',
    ...(failing.length ? failing : ['None.']),
    '',
    ...agentSection(all.agents),
    ...agentLastRun(all.agents),
    '## What each case checks',
    '',
    '| case | checks |',
    '|---|---|',
    ...CASES.map(
      (c) =>
        `| ${c.label} | ${c.checks}${'doors' in c ? ` (${c.doors.map(doorLabel).join(', ')} only)` : ''}${'upstreams' in c ? ` (${c.upstreams.map(upstreamLabel).join(', ')} upstream only)` : ''} |`,
    ),
    '',
  ].join('\n');
}

/**
 * The page without what depends on outcomes (summary, failing cells, cell values): what must match
 * the suite's case list whatever the last run gave.
 */
export function docSkeleton(md: string): string {
  const out: string[] = [];
  const lines = md.split('\n');
  let skipping = false;
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('## '))
      skipping = line === '## Summary' || line === '## Failing cells' || line === AGENT_FAILING_HEADING;
    if (skipping) continue;
    const header = lines[i + 1]?.startsWith('|---');
    if (line.startsWith('| ') && !header) {
      const cells = line.split(' | ');
      out.push(`${cells[0]} | ${cells.length - 1} cells`);
    } else out.push(line);
  }
  return out.join('\n');
}

/** The CI printout: a grid per door, counts, and every failing cell with what the user saw. */
export function renderMatrixText(all: AllResults): string {
  const short: Record<Mark, string> = { pass: 'pass', refused: 'refused', fail: 'FAIL', 'not run': '-', 'n/a': 'n/a' };
  const width = 18;
  const out: string[] = [];
  const block = (title: string, rows: Row[]) => {
    const n = count(rows);
    out.push(
      '',
      `${title}: ${n.pass} pass, ${n.refused} refused, ${n.fail} fail${n['not run'] ? `, ${n['not run']} not run` : ''}`,
    );
    const first = Math.max(...rows.map((r) => r.label.length), 4) + 2;
    out.push(' '.repeat(first) + UPSTREAMS.map((u) => u.id.padEnd(width)).join(''));
    for (const r of rows) out.push(r.label.padEnd(first) + r.cells.map((c) => short[c.mark].padEnd(width)).join(''));
    for (const r of rows)
      for (const c of r.cells) if (c.mark === 'fail') out.push(`  ✗ ${r.label} @ ${c.upstream}: ${c.error ?? ''}`);
  };
  out.push('Conformance matrix (door x upstream x case)');
  for (const d of DOORS) block(`${d.label} door`, doorRows(d.id, all.doors[d.id]));
  block('Recorded client shapes', shapeRows(all.shapes));
  out.push(...typeText(all.types));
  out.push(renderAgentText(all.agents));
  return out.join('\n');
}
