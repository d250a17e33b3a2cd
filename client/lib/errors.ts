import { notifications } from '@mantine/notifications';
import { TRPCClientError } from '@trpc/client';
import type { MessageParams, ServerMessageCode } from '../../shared/server-messages.ts';
import { serverMessageText, serverTextInLanguage } from './server-messages.ts';

interface ServerErrorData {
  messageCode?: ServerMessageCode;
  messageParams?: MessageParams;
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

/** An error toast; the same message is not shown twice at once (a failing list retried, two panels on one call). */
export function showError(error: unknown): void {
  const message = errorMessage(error);
  notifications.show({ id: `error:${message}`, color: 'red', message });
}

export function showSuccess(message: string): void {
  notifications.show({ color: 'teal', message });
}
