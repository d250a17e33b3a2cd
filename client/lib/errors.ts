import { notifications } from '@mantine/notifications';
import { TRPCClientError } from '@trpc/client';

/** The server's message for a failed call (spec: show it in an error toast). */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError || error instanceof Error) return error.message;
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
