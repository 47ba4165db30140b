import type { Daemon } from './kit.ts';
export const TFTPD: Daemon = { kind: 'TFTPD', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
export const SNMPD: Daemon = { kind: 'SNMPD', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
export const NTPD: Daemon = { kind: 'NTPD', binaries: ['/nonexistent'], ports: { tcp: [], udp: [] }, weaknesses: [], twins: [], async start() {} };
