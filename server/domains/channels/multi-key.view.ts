import type { KeyAction } from '../../../shared/schemas/channels.ts';

/**
 * new-api's success messages for the multi-key manage call (POST /api/channel/multi_key/manage);
 * REST clients read them as they are. The console words its own success notes.
 */
export function keyActionText(action: KeyAction, count: number): string {
  switch (action) {
    case 'disable_key':
      return '密钥已禁用';
    case 'enable_key':
      return '密钥已启用';
    case 'enable_all_keys':
      return `已启用 ${count} 个密钥`;
    case 'disable_all_keys':
      return `已禁用 ${count} 个密钥`;
    case 'delete_key':
      return '密钥已删除';
    case 'delete_disabled_keys':
      return `已删除 ${count} 个自动禁用的密钥`;
  }
}
