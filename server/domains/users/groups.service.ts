import { mayUseGroup } from '../options/options.rules.ts';
import { enabledModelsOfGroups } from './users.repo.ts';
import type { UsersDeps } from './users.rules.ts';

export type GroupInfo = Record<string, { ratio: number; desc: string }>;

/** Groups a user may choose for tokens, and the models those groups reach. */
export function createGroupsService(d: UsersDeps) {
  /**
   * The groups the user may use (mayUseGroup) with their ratio and description: the listed ones that have a
   * ratio, in the site's order (the order the console's pickers show), then the own group, which shows even
   * without a ratio (an admin may have put the user in any group).
   */
  function usableGroups(ownGroup?: string): GroupInfo {
    const ratios = d.options.get('GroupRatio');
    const listed = d.options.get('UserUsableGroups');
    const hasRatio = (group: string) => Object.hasOwn(ratios, group);
    const candidates = new Set([...Object.keys(listed).filter(hasRatio), ...Object.keys(ratios)]);
    if (ownGroup) candidates.add(ownGroup);
    const out: GroupInfo = {};
    for (const group of candidates)
      if (mayUseGroup(listed, ownGroup, group))
        out[group] = {
          ratio: hasRatio(group) ? ratios[group] : 1,
          desc: Object.hasOwn(listed, group) ? listed[group] : '用户分组',
        };
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
