/*
 * Where the suite leaves its outcomes: one JSON file per test file under test-artifacts/conformance/
 * (gitignored), written in the file's afterAll. Files run in parallel workers, so each writes its own;
 * the page generator reads them all. A cell a run did not execute (a `-t` filter) is absent and shows
 * as "not run", never as a stale outcome.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { CaseId, ClientShapeId, DoorId, TypeCaseId, UpstreamId } from './matrix.ts';

export type Outcome = 'pass' | 'refused' | 'fail';

export interface CellResult {
  upstream: UpstreamId;
  case: CaseId;
  outcome: Outcome;
  /** For `fail`: what the user would have seen (status and message), or the failed assertion. */
  error?: string;
  /** For `refused`: the deliberate-refusals.ts entry's reason. */
  reason?: string;
}

export interface DoorResults {
  door: DoorId;
  finishedAt: string;
  cells: CellResult[];
}

export interface ShapeResult {
  shape: ClientShapeId;
  upstream: UpstreamId;
  outcome: Outcome;
  error?: string;
  reason?: string;
}

export interface ShapeResults {
  finishedAt: string;
  cells: ShapeResult[];
}

export const RESULTS_DIR = new URL('../../test-artifacts/conformance/', import.meta.url);

const fileOf = (name: string) => new URL(`${name}.json`, RESULTS_DIR);

function write(name: string, value: unknown) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(fileOf(name), `${JSON.stringify(value, null, 2)}\n`);
}

function read<T>(name: string): T | undefined {
  const f = fileOf(name);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as T) : undefined;
}

export const writeDoorResults = (r: DoorResults) => write(r.door, r);
export const readDoorResults = (door: DoorId) => read<DoorResults>(door);
export const writeShapeResults = (r: ShapeResults) => write('client-shapes', r);
export const readShapeResults = () => read<ShapeResults>('client-shapes');

/** The channel-type suite (channel-types.test.ts): one cell per type x door x case. */
export interface TypeCellResult {
  type: number;
  door: DoorId;
  case: TypeCaseId;
  outcome: Outcome;
  error?: string;
}

export interface TypeResults {
  finishedAt: string;
  cells: TypeCellResult[];
}

export const writeTypeResults = (r: TypeResults) => write('channel-types', r);
export const readTypeResults = () => read<TypeResults>('channel-types');
