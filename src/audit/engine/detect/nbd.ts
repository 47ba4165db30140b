/**
 * NBD (Network Block Device, 10809) greets first: "NBDMAGIC" then
 * "IHAVEOPT" and the handshake flags for the newstyle negotiation. nmap's
 * database matches flags 0 and 1 only, and nbd-server 3.24 sends 3
 * (FIXED_NEWSTYLE | NO_ZEROES, measured), so its port stayed unnamed; the
 * oldstyle greeting (a size instead of IHAVEOPT) is nmap's to name.
 */
import { isNbdGreeting } from '../../proto/nbd.ts';
import type { Family } from './family.ts';

export const nbd: Family = {
  id: 'nbd',
  ports: [10809],
  async banner(greeting, s) {
    if (!isNbdGreeting(greeting)) return false;
    Object.assign(s, { name: 'nbd', product: 'Network Block Device' });
    if (greeting.length >= 18) s.extra.nbdHandshake = `newstyle, flags ${greeting.readUInt16BE(16)}`;
    return true;
  },
};
