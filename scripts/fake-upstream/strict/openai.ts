import type { StrictValidator } from './types.ts';

export const validateOpenAI: StrictValidator = () => null;
export const validateOpenAIChatOnly: StrictValidator = () => null;
