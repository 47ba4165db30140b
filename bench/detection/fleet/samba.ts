import type { Daemon } from './kit.ts';
export const SAMBA: Daemon = { kind: 'SAMBA', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
