import type { StrictValidator } from './types.ts';

export const validateAnthropic: StrictValidator = () => null;
