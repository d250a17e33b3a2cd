import { z } from 'zod';
import { appErrorOfText, badRequest } from '../../../../errors.ts';
import type { OptionsService } from '../../../options/options.service.ts';
import { fetchJson, type ProviderProfile } from './profile.client.ts';

const answer = z.object({ success: z.boolean(), message: z.string().default(''), data: z.string().default('') });

/**
 * The WeChat login server (a separate service the operator runs) turns the
 * verification code a user got from the official account into an openid. It
 * owns the codes and their 3-minute lifetime, so an expired code comes back
 * as success:false and is refused here.
 */
export async function wechatProfile(options: OptionsService, code: string): Promise<ProviderProfile> {
  if (code.trim() === '') throw badRequest('common.invalid_params');
  const base = options.get('WeChatServerAddress').replace(/\/$/, '');
  if (base === '') throw badRequest('oauth.wechat_unconfigured');
  const res = answer.parse(
    await fetchJson(
      `${base}/api/wechat/user?${new URLSearchParams({ code: code.trim() }).toString()}`,
      { headers: { authorization: options.get('WeChatServerToken') } },
      '微信',
    ),
  );
  if (!res.success || res.data === '')
    throw res.message ? appErrorOfText('BAD_REQUEST', res.message) : badRequest('verify.code_wrong');
  return { id: res.data };
}
