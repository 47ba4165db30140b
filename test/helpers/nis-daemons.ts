/**
 * A NIS server (Debian nis: ypserv) for tests and the detection fleet:
 * rpcbind and ypserv in a namespace plan of their own (legacy-daemons.ts;
 * one rpcbind owns /run/rpcbind.sock, so each pair needs its own /run), on
 * a tmpfs /var/yp holding one domain whose passwd maps are built with
 * makedbm from a planted passwd file: alice with a (made-up) SHA-512 crypt
 * hash in the map, as NIS masters without shadow maps serve it, and bob
 * with "x". ypserv listens on YP_PORT (-p) so that the relays know it.
 * Restricted: /var/yp/securenets admits only 192.0.2.0/24, and the
 * relays reach ypserv from 127.0.0.1, so every map request is refused.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NsPlan } from './legacy-daemons.ts';

export const YP_PORT = 834;
export const NIS_BINARIES = ['rpcbind', 'ypserv', 'rpcinfo', 'socat', 'unshare'];
export const NIS_PASSWD = [
  'alice:$6$vigiltest$h2u9Jm0nM1qk6fJ8rZ1cWm3p4b5nqXQ0o9PZs7c8d9e0f1g2h3i4j5k6l7m8n9o0p1q2r3s4t5u6v7w8x9y0z1:1001:1001:Alice:/home/alice:/bin/bash',
  'bob:x:1002:1002:Bob:/home/bob:/bin/sh',
];

/**
 * `wrappers` also puts rpcbind behind TCP wrappers ("rpcbind: ALL"): the
 * fleet's twin, which must not show the portmapper's own DUMP either.
 */
export function nisPlan(dir: string, domain: string, restricted: boolean, wrappers = false): NsPlan {
  writeFileSync(join(dir, 'passwd'), `${NIS_PASSWD.join('\n')}\n`);
  const makedbm = '/usr/lib/yp/makedbm';
  return {
    setup: [
      'mount -t tmpfs -o mode=0755 none /var/yp',
      `mkdir -p /var/yp/${domain}`,
      // ypserv 4 reads /var/yp/securenets (older builds /etc/ypserv.securenets); without one it serves all.
      `echo '${restricted ? '255.255.255.0 192.0.2.0' : '0.0.0.0 0.0.0.0'}' > /var/yp/securenets`,
      `awk -F: '{ print $1 "\\t" $0 }' ${join(dir, 'passwd')} | ${makedbm} - /var/yp/${domain}/passwd.byname`,
      `awk -F: '{ print $3 "\\t" $0 }' ${join(dir, 'passwd')} | ${makedbm} - /var/yp/${domain}/passwd.byuid`,
      'rpcbind -f &',
      "for i in $(seq 100); do ss -Hlnt | grep -q ':111 ' && break; sleep 0.1; done",
      `ypserv -d -p ${YP_PORT} > ${join(dir, 'ypserv.log')} 2>&1 &`,
    ],
    // Registered, asked over rpcbind's Unix socket (rpcinfo without a host): TCP wrappers refuse 127.0.0.1 too.
    ready: "rpcinfo 2>/dev/null | grep -q '^ *100004 '",
    relays: {
      'tcp-111': 'TCP:127.0.0.1:111',
      'udp-111': 'UDP:127.0.0.1:111',
      'tcp-yp': `TCP:127.0.0.1:${YP_PORT}`,
      'udp-yp': `UDP:127.0.0.1:${YP_PORT}`,
    },
    ...(wrappers ? { files: { '/etc/hosts.allow': '', '/etc/hosts.deny': 'rpcbind: ALL\n' } } : {}),
  };
}

/** The relays for nisPlan's sockets on `addr`. */
export const nisRelays = (addr: string) =>
  (
    [
      ['tcp', 111, 'tcp-111'],
      ['udp', 111, 'udp-111'],
      ['tcp', YP_PORT, 'tcp-yp'],
      ['udp', YP_PORT, 'udp-yp'],
    ] as const
  ).map(([proto, port, socket]) => ({ proto, addr, port, socket }));
