import type { Infra } from '../../context.ts';
import type { OptionsService } from '../options/options.service.ts';
import type { TwoFaKeys } from './secret-box.rules.ts';

/** What the two-factor services are built from. */
export interface TwoFaDeps {
  db: Infra['db'];
  options: OptionsService;
  keys: TwoFaKeys;
}
