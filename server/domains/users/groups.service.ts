import { toRelayUser } from '../../relay/principal.ts';
import { resolvePrice } from '../billing/pricing.rules.ts';
import { mayUseGroup } from '../options/options.rules.ts';
import { findRelayUser, listEnabledGroupModels } from './users.repo.ts';
import type { UsersDeps } from './users.rules.ts';

export type GroupInfo = Record<string, { ratio: number; desc: string }>;

/** Groups a user may choose for tokens, and the models those groups reach. */
export function createGroupsService(d: UsersDeps) {
  // Group -> models of its enabled abilities, read once per channel change rather than on every request.
  let served: Promise<Map<string, string[]>> | undefined;
  d.bus.subscribe('channels', () => {
    served = undefined;
  });
  function servedByGroup(): Promise<Map<string, string[]>> {
    if (!served) {
      const load = listEnabledGroupModels(d.db).then((rows) => {
        const map = new Map<string, string[]>();
        for (const { group, model } of rows) {
          const list = map.get(group);
          if (list) list.push(model);
          else map.set(group, [model]);
        }
        return map;
      });
      // A failed read must not stay cached.
      load.catch(() => {
        if (served === load) served = undefined;
      });
      served = load;
    }
    return served;
  }

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

    /**
     * Models enabled in the user's own group or any usable group that a call would not refuse for want
     * of a price (issue 39): priced, or the fallback price, self-use mode or the user's "accept models
     * without a price" (the relay's own lookup, billing/pricing.rules.ts). Personal settings › Available
     * models, the token form's model limits and the playground list them.
     */
    async userModels(user: { id: number; group: string }): Promise<string[]> {
      const groups = new Set([user.group, ...Object.keys(d.options.get('UserUsableGroups'))]);
      const byGroup = await servedByGroup();
      const models = new Set([...groups].flatMap((g) => byGroup.get(g) ?? []));
      const row = await findRelayUser(d.db, user.id);
      const acceptUnset = row ? toRelayUser(row).acceptUnsetModels : false;
      return [...models].filter((m) => resolvePrice(d.options.get, m, user.group, acceptUnset).ok).sort();
    },
  };
}
