/*
 * Base URLs of the outside services sign-in talks to. Each can be overridden
 * by an environment variable so tests (and air-gapped installs with a mirror)
 * point them at local servers; read at call time so a test can set them late.
 */
export function providerUrls() {
  const env = process.env;
  return {
    turnstileVerify: env.TURNSTILE_VERIFY_URL ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    /** github.com: /login/oauth/access_token */
    githubWeb: (env.GITHUB_OAUTH_URL ?? 'https://github.com').replace(/\/$/, ''),
    /** api.github.com: /user */
    githubApi: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, ''),
    /** connect.linux.do: /oauth2/token and /api/user */
    linuxdo: (env.LINUXDO_OAUTH_URL ?? 'https://connect.linux.do').replace(/\/$/, ''),
  };
}
