import type { Check } from '../types.ts';

export const NSE_CHECKS: readonly Check[] = [];
