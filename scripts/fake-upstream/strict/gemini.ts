import type { StrictValidator } from './types.ts';

export const validateGemini: StrictValidator = () => null;
