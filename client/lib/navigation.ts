/** Lets code outside React (the query client's error rule) navigate through the router. */
type Navigate = (to: string, opts?: { replace?: boolean }) => Promise<void>;

let navigateImpl: Navigate = async (to) => window.location.assign(to);

export function setNavigate(fn: Navigate): void {
  navigateImpl = fn;
}

export function navigateTo(to: string, opts?: { replace?: boolean }): Promise<void> {
  return navigateImpl(to, opts);
}

/** Where the user is now, as a returnTo value. */
export const currentLocation = () => window.location.pathname + window.location.search;

export const loginUrl = (returnTo: string, expired = false) =>
  `/login?${expired ? 'expired=true&' : ''}returnTo=${encodeURIComponent(returnTo)}`;

/** Only same-site paths are followed after login. */
export function safeReturnTo(value: string | null, fallback = '/app/tokens'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return fallback;
  return value;
}
