import type { Daemon } from './kit.ts';
export const XVFB: Daemon = { kind: 'XVFB', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
