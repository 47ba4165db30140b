/**
 * RADIUS. FreeRADIUS (Debian freeradius) with a client entry for loopback
 * (where the scanner's requests come from) holding the secret its
 * clients.conf ships, "testing123" (and one with "radius", the placeholder
 * of NAS guides); the twin's entry has a long random secret, so its
 * Access-Rejects verify under no candidate.
 */
import {
  FREERADIUS_BINARIES,
  freeradiusPlan,
  radiusStatusServer,
} from '../../../test/helpers/auth-services-daemons.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 86;
const A = (n: number) => addr(K, n);

export const FREERADIUS: Daemon = {
  kind: 'freeradius',
  binaries: FREERADIUS_BINARIES,
  ports: { tcp: [], udp: [1812] },
  weaknesses: [
    {
      id: 'radius-default-secret',
      family: 'auth',
      label: 'RADIUS shared secret "testing123" (FreeRADIUS default client)',
      daemon: 'freeradius',
      address: A(1),
      port: 1812,
      proto: 'udp',
      vigil: { id: /^vigil\.radius\.default-secret$/ },
      // nmap has no script that verifies a RADIUS secret (its -sV names the port at most).
      nmap: none,
    },
    {
      id: 'radius-guide-secret',
      family: 'auth',
      label: 'RADIUS shared secret "radius" (a NAS guide\'s placeholder; FreeRADIUS)',
      daemon: 'freeradius',
      address: A(2),
      port: 1812,
      proto: 'udp',
      vigil: { id: /^vigil\.radius\.default-secret$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(100), note: 'a long random shared secret for the loopback client' }],
  async start(ctx) {
    for (const [address, secret] of [
      [A(1), true],
      [A(2), 'radius'],
      [A(100), false],
    ] as const) {
      const plan = freeradiusPlan(ctx.dir(address), address, 1812, secret);
      const radius = ctx.spawn(`freeradius-${address}`, plan.cmd, plan.args, { env: plan.env });
      // Status-Server is answered at once (an Access-Request waits reject_delay, 1 s).
      await ctx.waitUdp(address, 1812, radiusStatusServer(plan.secret!), radius);
    }
  },
};
