import type { Daemon } from './kit.ts';
export const POSTFIX: Daemon = { kind: 'POSTFIX', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
