import {
  readUserSetting,
  type UserSetting,
  type UserSettingInput,
  userSettingInput,
} from '../../../shared/schemas/user-setting.ts';
import type { Infra } from '../../context.ts';
import { notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { findSettingText, saveSettingText } from './user-settings.repo.ts';

export type UserSettingsService = ReturnType<typeof createUserSettingsService>;

export { readUserSetting };

export function createUserSettingsService(infra: Infra, options: OptionsService) {
  const fallbackThreshold = () => options.get('QuotaRemindThreshold');

  return {
    async get(userId: number): Promise<UserSetting> {
      const text = await findSettingText(infra.db, userId);
      if (text === undefined) throw notFound('user.not_found');
      return readUserSetting(text, fallbackThreshold());
    },

    /**
     * Replaces the known fields; keys other features keep in the same JSON text
     * (written by newer consoles) survive the save.
     */
    async update(userId: number, input: UserSettingInput): Promise<UserSetting> {
      const next = userSettingInput.parse(input);
      const text = await findSettingText(infra.db, userId);
      if (text === undefined) throw notFound('user.not_found');
      let kept: Record<string, unknown> = {};
      try {
        const old: unknown = text ? JSON.parse(text) : {};
        if (old && typeof old === 'object' && !Array.isArray(old)) kept = old as Record<string, unknown>;
      } catch {
        // A corrupt old value is simply replaced.
      }
      await saveSettingText(infra.db, userId, JSON.stringify({ ...kept, ...next }));
      infra.bus.publish('users', String(userId));
      return next;
    },
  };
}
