/*
 * docs/conformance.md § Channel types and its CI printout: one column per channel type, one row per
 * door x case, from test-artifacts/conformance/channel-types.json.
 */
import { DOORS, TYPE_CASES } from '../matrix.ts';
import type { Outcome, TypeResults } from '../results.ts';
import { typeLabel } from './entry.ts';
import { CHANNEL_TYPE_ENTRIES } from './index.ts';

type Mark = Outcome | 'not run';

interface TypeRow {
  label: string;
  cells: { type: number; mark: Mark; error?: string }[];
}

export function typeRows(res: TypeResults | undefined): TypeRow[] {
  return DOORS.flatMap((d) =>
    TYPE_CASES.map((c) => ({
      label: `${d.label} › ${c.label}`,
      cells: CHANNEL_TYPE_ENTRIES.map((e) => {
        const cell = res?.cells.find((x) => x.type === e.type && x.door === d.id && x.case === c.id);
        return { type: e.type, mark: cell?.outcome ?? ('not run' as const), error: cell?.error };
      }),
    })),
  );
}

export function typeCounts(rows: TypeRow[]): Record<Mark, number> {
  const n: Record<Mark, number> = { pass: 0, refused: 0, fail: 0, 'not run': 0 };
  for (const r of rows) for (const c of r.cells) n[c.mark]++;
  return n;
}

const SYMBOL: Record<Mark, string> = { pass: '✓', refused: 'refused', fail: '✗', 'not run': '·' };

/** The page's section. */
export function typeSection(res: TypeResults | undefined): string[] {
  const rows = typeRows(res);
  return [
    '## Channel types',
    '',
    'The channel types with an adapter of their own besides the four dialects above (their wire formats, signatures,',
    "token exchanges and transports), each against a strict fake of its provider's documented API",
    '(`scripts/fake-upstream/<provider>/`), with one channel entered as an operator would (the key in the form new-api',
    "stores it). Every door's SDK asks each type for a plain answer, the same answer streamed, and an upstream error:",
    ...TYPE_CASES.map((c) => `- **${c.label}**: ${c.checks}.`),
    '',
    `| door › case | ${CHANNEL_TYPE_ENTRIES.map((e) => typeLabel(e.type)).join(' | ')} |`,
    `|---|${CHANNEL_TYPE_ENTRIES.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.label} | ${r.cells.map((c) => SYMBOL[c.mark]).join(' | ')} |`),
    '',
  ];
}

/** Its failing cells, for the page's list of failing cells (the caller escapes and steadies them). */
export const typeFailing = (res: TypeResults | undefined): string[] =>
  typeRows(res).flatMap((r) =>
    r.cells.filter((c) => c.mark === 'fail').map((c) => `- ${typeLabel(c.type)} › ${r.label}: ${c.error ?? ''}`),
  );

/** The CI printout's block. */
export function typeText(res: TypeResults | undefined): string[] {
  const rows = typeRows(res);
  const n = typeCounts(rows);
  const short: Record<Mark, string> = { pass: 'pass', refused: 'refused', fail: 'FAIL', 'not run': '-' };
  const first = Math.max(...rows.map((r) => r.label.length)) + 2;
  return [
    '',
    `Channel types: ${n.pass} pass, ${n.fail} fail${n['not run'] ? `, ${n['not run']} not run` : ''}`,
    ' '.repeat(first) + CHANNEL_TYPE_ENTRIES.map((e) => String(e.type).padEnd(6)).join(''),
    ...rows.map((r) => r.label.padEnd(first) + r.cells.map((c) => short[c.mark].padEnd(6)).join('')),
    ...rows.flatMap((r) =>
      r.cells.filter((c) => c.mark === 'fail').map((c) => `  ✗ ${typeLabel(c.type)} › ${r.label}: ${c.error ?? ''}`),
    ),
  ];
}
