import type { Check } from '../types.ts';

export const SERVICE_CHECKS: readonly Check[] = [];
