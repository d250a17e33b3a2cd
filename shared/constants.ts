/** Roles: admin means role >= ADMIN, super admin means role >= ROOT. */
export const Role = { Guest: 0, Common: 1, Admin: 10, Root: 100 } as const;

export const UserStatus = { Enabled: 1, Disabled: 2, Deleted: 3 } as const;
export const TokenStatus = { Enabled: 1, Disabled: 2, Expired: 3, Exhausted: 4 } as const;
export const ChannelStatus = { Unknown: 0, Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;
export const RedemptionStatus = { Unused: 1, Disabled: 2, Used: 3 } as const;
export const TopUpStatus = { Pending: 'pending', Success: 'success', Failed: 'failed' } as const;

/** Log types as the console shows them; 0 is displayed as consumption. */
export const LogType = {
  Unknown: 0,
  TopUp: 1,
  Consume: 2,
  Manage: 3,
  System: 4,
  CheckIn: 5,
  Error: 6,
} as const;

/** Default quota per US dollar; the option QuotaPerUnit can change it (the console warns not to). */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 20;
export const MAX_USERNAME_LENGTH = 20;
export const MAX_DISPLAY_NAME_LENGTH = 20;
export const TOKEN_KEY_LENGTH = 48;
export const MAX_TOKEN_NAME_LENGTH = 30;

export const DEFAULT_GROUP = 'default';

export const isAdmin = (role: number) => role >= Role.Admin;
export const isRoot = (role: number) => role >= Role.Root;
