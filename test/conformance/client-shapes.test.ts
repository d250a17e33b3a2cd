/*
 * Recorded client shapes (issue #20, Deliver 7): the requests Claude Code, Codex CLI, Gemini CLI and a
 * chat app send today (fixtures/*.json, headers included), sent raw with fetch through their door to
 * every upstream dialect. A cell passes on a 200 whose stream the client would parse; a 400 counts as
 * a refusal only when deliberate-refusals.ts lists it. Results go to test-artifacts/conformance/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRICT_VALIDATORS, type StrictDialect } from '../../scripts/fake-upstream/strict/index.ts';
import { payer } from '../provider-fixtures.ts';
import { expectWellFormedStream, fillShape, loadShape } from './client-shapes.ts';
import { shapeRefusalFor } from './deliberate-refusals.ts';
import { dialectErrorOfBody } from './dialect-errors.ts';
import { type Gateway, startGateway, stopGateway } from './harness.ts';
import { CLIENT_SHAPES, type DoorId, UPSTREAMS } from './matrix.ts';
import { type ShapeResult, writeShapeResults } from './results.ts';
import { clientModel, upstreamModel } from './upstreams.ts';

/** The upstream dialect each door speaks natively (what a shape must be valid in). */
const NATIVE: Record<DoorId, StrictDialect> = {
  'openai-chat': 'openai',
  responses: 'openai',
  anthropic: 'anthropic',
  gemini: 'gemini',
};
const NATIVE_UPSTREAM = {
  'openai-chat': 'openai',
  responses: 'openai',
  anthropic: 'anthropic',
  gemini: 'gemini',
} as const;

let g: Gateway | undefined;
const results: ShapeResult[] = [];
beforeAll(async () => {
  g = await startGateway();
});
afterAll(async () => {
  writeShapeResults({ finishedAt: new Date().toISOString(), cells: results });
  await stopGateway(g);
});

describe('Recorded client shapes', () => {
  for (const s of CLIENT_SHAPES)
    describe(s.label, () => {
      const shape = loadShape(s.id);

      it('is a request its own API accepts (the strict validator of its dialect)', () => {
        expect(shape.$comment, 'where the shape comes from').toMatch(/^(Captured from the real|Hand-recorded)/);
        expect(shape.door).toBe(s.door);
        const model = upstreamModel(NATIVE_UPSTREAM[s.door], shape.modelRole);
        const req = fillShape(shape, 'sk-test', model);
        expect(STRICT_VALIDATORS[NATIVE[s.door]](req.path, req.headers, { ...req.body, model })).toBeNull();
      });

      for (const u of UPSTREAMS)
        it(`through ${u.label}`, async () => {
          const p = await payer(g!.h);
          const req = fillShape(shape, p.key, clientModel(u.id, shape.modelRole));
          const res = await fetch(`${g!.origin}${req.path}`, {
            method: shape.method,
            headers: req.headers,
            body: JSON.stringify(req.body),
          });
          const text = await res.text();
          try {
            expect(res.status, text.slice(0, 500)).toBe(200);
            expectWellFormedStream(s.door, text);
            results.push({ shape: s.id, upstream: u.id, outcome: 'pass' });
          } catch (err) {
            const refusal = shapeRefusalFor(s.id, u.id);
            let body: unknown;
            try {
              body = JSON.parse(text);
            } catch {
              body = undefined;
            }
            const seen = dialectErrorOfBody(s.door, res.status, body);
            if (refusal && seen?.status === 400 && seen.message.includes(refusal.messageIncludes)) {
              results.push({ shape: s.id, upstream: u.id, outcome: 'refused', reason: refusal.reason });
              return;
            }
            const error = seen
              ? `${seen.status}: ${seen.message}`
              : `${res.status}: ${(err as Error).message.split('\n')[0]}`;
            results.push({ shape: s.id, upstream: u.id, outcome: 'fail', error: error.slice(0, 400) });
            throw err;
          }
        });
    });
});
