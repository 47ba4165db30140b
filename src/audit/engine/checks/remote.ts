import type { Check } from '../types.ts';

export const REMOTE_CHECKS: readonly Check[] = [];
