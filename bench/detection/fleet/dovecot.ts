import type { Daemon } from './kit.ts';
export const DOVECOT: Daemon = { kind: 'DOVECOT', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
