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

let expired = false;

/** Set when the server rejected the stored user's session; guards then send to the "expired" login. */
export function markSessionExpired(): void {
  expired = true;
}

export const sessionExpired = () => expired;

export function setStoredUser(user: StoredUser | null): void {
  current = user;
  if (user) expired = false;
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
