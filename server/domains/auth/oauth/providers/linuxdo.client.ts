import { z } from 'zod';
import { serverText } from '../../../../../shared/server-messages.ts';
import { badRequest } from '../../../../errors.ts';
import type { OptionsService } from '../../../options/options.service.ts';
import { providerUrls } from '../../endpoints.client.ts';
import { fetchJson, type ProviderProfile } from './profile.client.ts';

const tokenAnswer = z.object({ access_token: z.string().optional(), error_description: z.string().optional() });
const linuxdoUser = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string().nullish(),
  active: z.boolean().optional(),
  trust_level: z.number().int(),
  silenced: z.boolean().optional(),
});

/** Linux.do Connect: code → token (client credentials in Basic auth) → /api/user, then the trust-level floor. */
export async function linuxdoProfile(
  options: OptionsService,
  code: string,
  redirectUri: string,
): Promise<ProviderProfile> {
  const base = providerUrls().linuxdo;
  const basic = Buffer.from(`${options.get('LinuxDOClientId')}:${options.get('LinuxDOClientSecret')}`).toString(
    'base64',
  );
  const token = tokenAnswer.parse(
    await fetchJson(
      `${base}/oauth2/token`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
      },
      ' Linux DO ',
    ),
  );
  if (!token.access_token)
    throw badRequest('oauth.linuxdo_failed', { reason: token.error_description ?? serverText('oauth.invalid_code') });
  const user = linuxdoUser.parse(
    await fetchJson(`${base}/api/user`, { headers: { authorization: `Bearer ${token.access_token}` } }, ' Linux DO '),
  );
  if (user.active === false || user.silenced === true) throw badRequest('oauth.linuxdo_inactive');
  if (user.trust_level < options.get('LinuxDOMinimumTrustLevel')) throw badRequest('oauth.linuxdo_trust_level');
  return { id: String(user.id), displayName: user.name || user.username };
}
