import { type StoredMessage, storedMessageText } from '../../../shared/stored-message.ts';

export interface MessageLogOptions {
  /** How this writer has always worded an amount of quota in `content` (new-api's wording differs by writer). */
  amountText?: (quota: number) => string;
  /** The row's other `other` fields (`message` is added beside them). */
  other?: Record<string, unknown>;
  /** `content` is cut to this many characters (a long upstream reason). */
  maxLength?: number;
}

/**
 * The `content` and `other` of a log row that says a registry message (issue 22). `content` is the
 * Chinese line legacy clients read, word for word as before; `other.message` holds the code and
 * parameters, amounts as quota numbers, from which the console writes the line in its own language
 * and shows money as the operator chose. `message` is no field of new-api's `other`.
 */
export function messageLogFields(
  message: StoredMessage,
  opts: MessageLogOptions = {},
): { content: string; other: string } {
  const content = storedMessageText(message, opts.amountText);
  return {
    content: opts.maxLength === undefined ? content : content.slice(0, opts.maxLength),
    other: JSON.stringify({ ...opts.other, message }),
  };
}
