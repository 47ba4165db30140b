import type { Daemon } from './kit.ts';
export const RSYNC: Daemon = { kind: 'RSYNC', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
