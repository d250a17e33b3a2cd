/* The rows of `options` (joined into `Database` by server/db/types.ts). */

export interface OptionsTable {
  key: string;
  value: string;
}
