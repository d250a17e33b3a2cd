import type { TokenView } from './tokens.service.ts';

/**
 * new-api's key mask (model.MaskTokenKey, 2026): the first and last four characters around ten
 * asterisks; short keys keep less. Applied to the stored key, which has no `sk-`.
 */
export function maskTokenKey(key: string): string {
  if (key === '') return '';
  if (key.length <= 4) return '*'.repeat(key.length);
  if (key.length <= 8) return `${key.slice(0, 2)}****${key.slice(-2)}`;
  return `${key.slice(0, 4)}**********${key.slice(-4)}`;
}

/** A token as the 2026 contract lists it: everything but the key, which is masked. */
export const maskedTokenView = (view: TokenView): TokenView => ({ ...view, key: maskTokenKey(view.key) });
