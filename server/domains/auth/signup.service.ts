import { LogType, TOKEN_KEY_LENGTH } from '../../../shared/constants.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { messageLogFields } from '../logs/log-message.view.ts';
import { insertAccount, type ProviderIds } from '../users/account.service.ts';
import { randomAlphanumeric } from '../../random.ts';
import { creditInviter, findUserByAffCode, insertLog, insertUnlimitedToken } from '../users/users.repo.ts';
import type { UsersDeps } from '../users/users.rules.ts';

type GiftCode = 'log.new_user_gift' | 'log.invitee_gift' | 'log.inviter_gift';

export interface SignUp {
  username: string;
  passwordHash: string;
  email?: string;
  displayName?: string;
  affCode?: string;
  /** Third-party ids of an account created by an OAuth sign-in. */
  ids?: ProviderIds;
}

/**
 * What every self sign-up gets, whichever way it came in (password form or a
 * third-party login): QuotaForNewUser, the invite rewards and the optional
 * default token. Runs inside the caller's transaction.
 */
export async function createSignedUpAccount(d: UsersDeps, tx: Db, s: SignUp): Promise<number> {
  const o = d.options.get.bind(d.options);
  const forNewUser = o('QuotaForNewUser');
  const forInvitee = o('QuotaForInvitee');
  const forInviter = o('QuotaForInviter');
  const now = nowSeconds();
  // An unknown invite code is ignored, as in new-api: the sign-up itself is still wanted.
  const inviter = s.affCode ? await findUserByAffCode(tx, s.affCode) : undefined;
  const userId = await insertAccount(tx, {
    username: s.username,
    passwordHash: s.passwordHash,
    displayName: s.displayName,
    email: s.email ?? '',
    quota: forNewUser + (inviter ? forInvitee : 0),
    inviterId: inviter?.id,
    ids: s.ids,
  });
  const log = (id: number, username: string, code: GiftCode, quota: number) =>
    insertLog(tx, {
      user_id: id,
      username,
      created_at: now,
      type: LogType.System,
      // The gift lines state the bare quota ("新用户注册赠送 500000 额度"), as new-api's do.
      ...messageLogFields({ code, params: { amount: { quota } } }),
    });
  if (forNewUser > 0) await log(userId, s.username, 'log.new_user_gift', forNewUser);
  if (inviter) {
    await creditInviter(tx, inviter.id, forInviter);
    if (forInvitee > 0) await log(userId, s.username, 'log.invitee_gift', forInvitee);
    if (forInviter > 0) await log(inviter.id, inviter.username, 'log.inviter_gift', forInviter);
  }
  if (d.config.generateDefaultToken)
    await insertUnlimitedToken(tx, userId, `${s.username}的初始令牌`, randomAlphanumeric(TOKEN_KEY_LENGTH));
  return userId;
}
