import { expect } from 'vitest';

/** An /api answer as `app.inject` gives it, or already read into status and body. */
type RestAnswer = { statusCode: number; json(): unknown } | { status: number; body: unknown };

/**
 * A REST refusal as new-api answers it (api-contract §0.1): HTTP 200 with `success:false` and,
 * when given, exactly this message. `label` names the call in a failure.
 */
export function expectRefused(res: RestAnswer, message?: string, label?: string) {
  const [status, raw] = 'statusCode' in res ? [res.statusCode, res.json()] : [res.status, res.body];
  const body = raw as { success?: unknown; message?: unknown };
  expect(status, label).toBe(200);
  expect(body.success, label).toBe(false);
  if (message !== undefined) expect(body.message, label).toBe(message);
}

/** The same refusal as a value to compare whole answers with (`{status, body}`). */
export const refusal = (message: string) => ({ status: 200, body: { success: false, message } });
