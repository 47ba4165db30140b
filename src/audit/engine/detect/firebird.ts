/**
 * Firebird (protocol 10-13, XDR): it says nothing first, and nmap's probe
 * for it (rarity 8, after every other) was never reached within the port
 * budget: 3050 stayed "unknown". One op_connect, the first step of a
 * login, and its op_accept / op_cond_accept / op_reject.
 */
import { firebirdAnswer, firebirdHello } from '../../proto/firebird.ts';
import type { Family } from './family.ts';

export const firebird: Family = {
  id: 'firebird',
  ports: [3050],
  async probe(conv, s) {
    const a = firebirdAnswer(
      await conv.ask(firebirdHello(), 1500, (b) => b.length >= 16 || (b.length >= 4 && b[3] === 4)),
    );
    if (!a) return false;
    Object.assign(s, { name: 'firebird', product: 'Firebird' });
    if (a.version !== null) s.extra.protocol = String(a.version);
    return true;
  },
};
