import { useSyncExternalStore } from 'react';
import { isAdmin, isRoot } from '../../shared/constants.ts';
import { readJson, StorageKey, writeJson, writeString } from './storage.ts';

/** The signed-in user as kept in local storage under `user` (what the login answer carries). */
export interface StoredUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}

const listeners = new Set<() => void>();
let current: StoredUser | null = readJson<StoredUser>(StorageKey.user);

function emit() {
  for (const l of listeners) l();
}

export function getStoredUser(): StoredUser | null {
  return current;
}

/*
 * Set when the server rejected the stored user's session; guards then send to the "expired" login.
 * Kept in sessionStorage: the 401 may arrive on one page load and the redirect happen on the next.
 */
const EXPIRED_KEY = 'session-expired';

export function markSessionExpired(): void {
  sessionStorage.setItem(EXPIRED_KEY, '1');
}

export const sessionExpired = () => sessionStorage.getItem(EXPIRED_KEY) === '1';

export function setStoredUser(user: StoredUser | null): void {
  current = user;
  if (user) sessionStorage.removeItem(EXPIRED_KEY);
  if (user) writeJson(StorageKey.user, user);
  else writeString(StorageKey.user, null);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stored user, re-rendering on sign-in and sign-out. */
export function useStoredUser(): StoredUser | null {
  return useSyncExternalStore(subscribe, getStoredUser);
}

export const userIsAdmin = (u: StoredUser | null) => u !== null && isAdmin(u.role);
export const userIsRoot = (u: StoredUser | null) => u !== null && isRoot(u.role);
