import type { Selectable } from 'kysely';
import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `messages`, `message_recipients` (joined into `Database` by server/db/types.ts). */

export interface MessagesTable {
  id: Id;
  title: string;
  content: Defaulted<string>;
  format: Defaulted<string>;
  created_by: Defaulted<number>;
  created_at: Defaulted<number>;
  updated_at: Defaulted<number>;
  /** The registry message of a notice the server wrote (JSON, shared/stored-message.ts); '' otherwise. */
  notice: Defaulted<string>;
}

export interface MessageRecipientsTable {
  id: Id;
  message_id: number;
  user_id: number;
  read_at: number | null;
  created_at: Defaulted<number>;
}

export type MessageRow = Selectable<MessagesTable>;
