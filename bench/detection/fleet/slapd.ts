import type { Daemon } from './kit.ts';
export const SLAPD: Daemon = { kind: 'SLAPD', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
