/*
 * Reading an error the way each door's client reads it. An error "in the caller's dialect" is one the
 * door's official SDK raises as its own error class with a body of its own shape; anything else
 * (a connection error, a body of another dialect, a failed assertion) is not.
 */
import Anthropic from '@anthropic-ai/sdk';
import { ApiError as GeminiApiError } from '@google/genai';
import OpenAI from 'openai';
import type { DoorId } from './matrix.ts';

export interface DialectError {
  status: number;
  message: string;
}

/** A Gemini error message from the SDK embeds the google.rpc.Status body as JSON. */
function geminiBody(message: string): { error?: { code?: number; message?: string; status?: string } } | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    return JSON.parse(message.slice(start)) as { error?: { code?: number; message?: string; status?: string } };
  } catch {
    return undefined;
  }
}

/** The status and message an SDK error carries, when it is that door's SDK error with that dialect's body. */
export function dialectError(door: DoorId, err: unknown): DialectError | null {
  switch (door) {
    case 'openai-chat':
    case 'responses': {
      if (!(err instanceof OpenAI.APIError) || err.status === undefined) return null;
      const body = err.error as { message?: unknown } | undefined;
      if (typeof body?.message !== 'string') return null;
      return { status: err.status, message: body.message };
    }
    case 'anthropic': {
      if (!(err instanceof Anthropic.APIError) || err.status === undefined) return null;
      const body = err.error as { type?: unknown; error?: { type?: unknown; message?: unknown } } | undefined;
      if (body?.type !== 'error' || typeof body.error?.message !== 'string') return null;
      return { status: err.status, message: body.error.message };
    }
    case 'gemini': {
      if (!(err instanceof GeminiApiError)) return null;
      const body = geminiBody(err.message);
      if (typeof body?.error?.message !== 'string' || typeof body.error.status !== 'string') return null;
      return { status: err.status, message: body.error.message };
    }
  }
}

/** The same reading for a raw answer (the recorded client shapes are sent with fetch). */
export function dialectErrorOfBody(door: DoorId, status: number, body: unknown): DialectError | null {
  const b = body as { type?: unknown; error?: { message?: unknown; status?: unknown; type?: unknown } } | undefined;
  const message = b?.error?.message;
  if (typeof message !== 'string') return null;
  if (door === 'anthropic' && b?.type !== 'error') return null;
  if (door === 'gemini' && typeof b?.error?.status !== 'string') return null;
  return { status, message };
}

/** One line for the results file: the dialect's status and message, else the error's own words. */
export function describeError(door: DoorId, err: unknown): string {
  const d = dialectError(door, err);
  // An assertion names what it got: the part of the report that says what the user saw.
  const got = (err as { actual?: unknown } | null)?.actual;
  const text = d
    ? `${d.status}: ${d.message}`
    : err instanceof Error
      ? `${err.constructor.name}: ${err.message}${got !== undefined && !err.message.includes('got') ? ` (got ${JSON.stringify(got)})` : ''}`
      : String(err);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 400 ? `${line.slice(0, 397)}...` : line;
}
