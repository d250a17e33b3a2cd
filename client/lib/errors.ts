import { notifications } from '@mantine/notifications';
import { TRPCClientError } from '@trpc/client';
import { createElement, type ReactNode } from 'react';
import { ErrorWithDetail } from '../components/ErrorWithDetail.tsx';
import type { MessageParams, ServerMessageCode } from '../../shared/server-messages.ts';
import { serverMessageText, serverTextInLanguage } from './server-messages.ts';

interface ServerErrorData {
  messageCode?: ServerMessageCode;
  messageParams?: MessageParams;
  /** Technical detail (a network error's own words, a framework code), untranslated. */
  detail?: string;
}

/**
 * The server's message for a failed call, in the console's language (spec: show it in an error
 * toast): tRPC refusals by their code, REST ones (new-api's Chinese text) by their wording.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const data = error.data as ServerErrorData | undefined;
    if (data?.messageCode) return serverMessageText(data.messageCode, data.messageParams);
  }
  if (error instanceof Error) return serverTextInLanguage(error.message);
  return String(error);
}

/** A `detail` string field of an error's data, a REST failure or a result object (a failed channel test). */
export function detailOf(value: unknown): string | undefined {
  const holder = value instanceof TRPCClientError ? (value.data as ServerErrorData | undefined) : value;
  const detail = holder && typeof holder === 'object' && 'detail' in holder ? holder.detail : undefined;
  return typeof detail === 'string' && detail ? detail : undefined;
}

/** A toast's text: the sentence, and the technical detail behind "Details" when there is any. */
export function withDetail(message: string, detail: string | undefined, toastId?: string): ReactNode {
  return detail ? createElement(ErrorWithDetail, { message, detail, toastId }) : message;
}

/**
 * An error toast, with the server's technical detail on demand; the same message is not shown twice at
 * once (a failing list retried, two panels on one call). One parameter: it is passed as `onError` directly.
 */
export function showError(error: unknown): void {
  showFailure(undefined, error);
}

/** An error toast titled with what failed ("Channel copy failed"), the server's sentence under it. */
export function showFailure(title: string | undefined, error: unknown): void {
  const message = errorMessage(error);
  const id = `error:${title ?? ''}:${message}`;
  notifications.show({ id, color: 'red', title, message: withDetail(message, detailOf(error), id) });
}

export function showSuccess(message: string): void {
  notifications.show({ color: 'teal', message });
}
