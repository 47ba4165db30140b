/**
 * IKE: Debian strongSwan (strongswan-starter, strongswan-charon), one charon
 * in a network namespace of its own with a private /run (it binds UDP 500
 * on every address and keeps its pid file at /var/run/charon.pid:
 * test/helpers/charon.ts), reached through a UDP relay from A(1):500 and
 * A(100):500. A(1): IKEv1 Aggressive Mode with a pre-shared key
 * (aggressive=yes, authby=secret, and the strongswan.conf switch a responder
 * needs for it), whose first reply carries HASH_R. The twin A(100): the same
 * charon's aggressive=no conn (Main Mode only).
 */
import { randomBytes } from 'node:crypto';
import { askAggressive } from '../../../src/audit/proto/ike.ts';
import { Fence } from '../../../src/audit/engine/fence.ts';
import { charonUnsupported, startIkeResponder } from '../../../test/helpers/charon.ts';
import { addr, none, sleep, type Daemon } from './kit.ts';

const K = 99;
const A = (n: number) => addr(K, n);
const PORT = 500;

export const CHARON_IKE: Daemon = {
  kind: 'ike',
  binaries: ['/usr/lib/ipsec/starter', '/usr/lib/ipsec/charon', 'ip'],
  ports: { tcp: [], udp: [PORT] },
  weaknesses: [
    {
      id: 'ike-aggressive-psk',
      family: 'auth',
      label: 'IKEv1 Aggressive Mode with a PSK: HASH_R to anyone (strongSwan charon)',
      daemon: 'charon',
      address: A(1),
      port: PORT,
      proto: 'udp',
      vigil: { id: /^vigil\.ike\.aggressive-mode-psk$/ },
      // ike-version names the vendor and attributes, never the PSK hash of an Aggressive Mode reply.
      nmap: none,
    },
  ],
  twins: [{ address: A(100), note: 'charon: aggressive=no (Main Mode only)' }],
  async start(ctx) {
    const why = charonUnsupported();
    if (why) throw new Error(why);
    const ns = `vgfleetike${randomBytes(3).toString('hex')}`;
    const conns = [
      { address: A(1), aggressive: true },
      { address: A(100), aggressive: false },
    ];
    const { routes, charon, close } = await startIkeResponder({
      ns,
      dir: ctx.dir('charon'),
      conns,
      port: PORT,
      spawn: (label, cmd, args, stdio) => ctx.spawn(label, cmd, args, { stdio }),
    });
    ctx.onStop(close);
    ctx.note(`namespace ${ns} (no default route):\n${routes}`);
    const net = new Fence([A(1)], [A(1)]).net(A(1), 3000);
    for (const end = Date.now() + 15_000; (await askAggressive(net, PORT, 14, 'probe@example.invalid')) === null; ) {
      if (charon.exitCode !== null) throw new Error(`charon exited (${charon.exitCode})`);
      if (Date.now() > end) throw new Error('charon did not answer on UDP 500 within 15 s');
      await sleep(200);
    }
  },
};
