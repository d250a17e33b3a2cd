import { z } from 'zod';
import { serverText } from '../../../../../shared/server-messages.ts';
import { badRequest } from '../../../../errors.ts';
import type { OptionsService } from '../../../options/options.service.ts';
import { providerUrls } from '../../endpoints.client.ts';
import { fetchJson, type ProviderProfile } from './profile.client.ts';

const tokenAnswer = z.object({ access_token: z.string().optional(), error_description: z.string().optional() });
const githubUser = z.object({
  id: z.number(),
  login: z.string(),
  name: z.string().nullish(),
  email: z.string().nullish(),
});

/** GitHub's web flow: code → access token → /user. The numeric id is the binding (logins can be renamed). */
export async function githubProfile(options: OptionsService, code: string): Promise<ProviderProfile> {
  const urls = providerUrls();
  const token = tokenAnswer.parse(
    await fetchJson(
      `${urls.githubWeb}/login/oauth/access_token`,
      {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: options.get('GitHubClientId'),
          client_secret: options.get('GitHubClientSecret'),
          code,
        }),
      },
      ' GitHub ',
    ),
  );
  if (!token.access_token)
    throw badRequest('oauth.github_failed', { reason: token.error_description ?? serverText('oauth.invalid_code') });
  const user = githubUser.parse(
    await fetchJson(
      `${urls.githubApi}/user`,
      { headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' } },
      ' GitHub ',
    ),
  );
  const email = user.email || (await primaryEmail(urls.githubApi, token.access_token));
  return { id: String(user.id), displayName: user.name || user.login, email };
}

const githubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

/** A private profile e-mail is only in /user/emails (scope user:email); without it the account simply has none. */
async function primaryEmail(api: string, accessToken: string): Promise<string | undefined> {
  try {
    const list = githubEmails.safeParse(
      await fetchJson(`${api}/user/emails`, { headers: { authorization: `Bearer ${accessToken}` } }, ' GitHub '),
    );
    return list.success ? list.data.find((e) => e.primary && e.verified)?.email : undefined;
  } catch {
    return undefined;
  }
}
