import { notifications } from '@mantine/notifications';
import { TRPCClientError } from '@trpc/client';

/** The server's message for a failed call (spec: show it in an error toast). */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError || error instanceof Error) return error.message;
  return String(error);
}

export function showError(error: unknown): void {
  notifications.show({ color: 'red', message: errorMessage(error) });
}

export function showSuccess(message: string): void {
  notifications.show({ color: 'teal', message });
}
