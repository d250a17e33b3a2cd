import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { LogType } from '../../../shared/constants.ts';

export interface LogTypeMeta {
  value: number;
  label: MessageDescriptor;
  color: string;
}

/** Type 0 is shown as consumption (spec §4). */
export const logTypes: LogTypeMeta[] = [
  { value: LogType.TopUp, label: msg`Top-up`, color: 'cyan' },
  { value: LogType.Consume, label: msg`Consumption`, color: 'green' },
  { value: LogType.Manage, label: msg`Admin`, color: 'orange' },
  { value: LogType.System, label: msg`System`, color: 'violet' },
  { value: LogType.CheckIn, label: msg`Check-in`, color: 'teal' },
  { value: LogType.Error, label: msg`Error`, color: 'red' },
];

export function logTypeMeta(type: number): LogTypeMeta {
  return logTypes.find((m) => m.value === type) ?? logTypes[1];
}
