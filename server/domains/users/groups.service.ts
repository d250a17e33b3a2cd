import { enabledModelsOfGroups } from './users.repo.ts';
import type { UsersDeps } from './users.rules.ts';

export type GroupInfo = Record<string, { ratio: number; desc: string }>;

/** Groups a user may choose for tokens, and the models those groups reach. */
export function createGroupsService(d: UsersDeps) {
  /** UserUsableGroups ∩ GroupRatio, plus `ownGroup` (an admin may have put the user in any group). */
  function usableGroups(ownGroup?: string): GroupInfo {
    const ratios = d.options.get('GroupRatio');
    const usable = d.options.get('UserUsableGroups');
    const out: GroupInfo = {};
    for (const [group, desc] of Object.entries(usable))
      if (Object.hasOwn(ratios, group)) out[group] = { ratio: ratios[group], desc };
    if (ownGroup && !out[ownGroup])
      out[ownGroup] = { ratio: ratios[ownGroup] ?? 1, desc: usable[ownGroup] ?? '用户分组' };
    return out;
  }

  return {
    /** GET /api/user/self/groups. */
    selfGroups: (user: { group: string }) => usableGroups(user.group),
    /** GET /api/user/groups: no user, so only the site-wide usable groups. */
    publicGroups: () => usableGroups(),
    /** GET /api/group/: every group that has a ratio. */
    groupNames: () => Object.keys(d.options.get('GroupRatio')),

    /** Models enabled in the user's own group or any usable group. */
    async userModels(user: { group: string }): Promise<string[]> {
      const groups = new Set([user.group, ...Object.keys(d.options.get('UserUsableGroups'))]);
      return enabledModelsOfGroups(d.db, [...groups]);
    },
  };
}
