import type { ServerMessageCode, MessageParams } from '../../shared/server-messages.ts';
import { AppError } from '../errors.ts';

/**
 * A new-api call for a feature Switchyard does not have (a provider it does not integrate, a
 * service new-api's company hosts). The console shows the sentence in its usual error toast, which
 * only ever follows the operator's own click; pages that call such a route on load get an empty
 * answer in their shape instead (see docs/new-api-contract.md, "Not available").
 */
export const notAvailable = (messageCode: ServerMessageCode, params?: MessageParams) =>
  new AppError('NOT_IMPLEMENTED', messageCode, params);
