import type { Daemon } from './kit.ts';
export const IMITATIONS: Daemon = { kind: 'IMITATIONS', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
