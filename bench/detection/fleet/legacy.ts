/**
 * Legacy information services. Debian fingerd (in.fingerd, run by socat as
 * inetd would; it calls the finger client): the user list answered vs
 * in.fingerd -u, which refuses it. Debian oidentd: USERID for any
 * connection vs 'force hide' (ERROR : HIDDEN-USER).
 */
import { join } from 'node:path';
import { addr, script, type Daemon } from './kit.ts';

const K = 26;
const A = (n: number) => addr(K, n);

export const LEGACY_INFO: Daemon = {
  kind: 'legacy-info',
  binaries: ['in.fingerd', 'finger', 'socat', 'oidentd'],
  ports: { tcp: [79, 113], udp: [] },
  weaknesses: [
    {
      id: 'finger-users',
      family: 'ident',
      label: 'finger lists users to anyone (in.fingerd)',
      daemon: 'fingerd',
      address: A(1),
      port: 79,
      proto: 'tcp',
      vigil: { id: /^vigil\.finger\.users$/ },
      nmap: script('finger', /No one logged on|Login/),
    },
    {
      id: 'ident-users',
      family: 'ident',
      label: 'ident names the owners of connections (oidentd)',
      daemon: 'oidentd',
      address: A(1),
      port: 113,
      proto: 'tcp',
      vigil: { id: /^vigil\.ident\.users$/ },
      nmap: script('auth-owners', /\S/),
    },
  ],
  twins: [{ address: A(100), note: 'in.fingerd -u (no user list); oidentd force hide' }],
  async start(ctx) {
    for (const [address, open] of [
      [A(1), true],
      [A(100), false],
    ] as const) {
      const dir = ctx.dir(address);
      const finger = ctx.spawn(`fingerd-${address}`, 'socat', [
        `TCP-LISTEN:79,bind=${address},fork,reuseaddr`,
        `EXEC:/usr/sbin/in.fingerd${open ? '' : ' -u'}`,
      ]);
      const conf = ctx.write(
        join(dir, 'oidentd.conf'),
        `default {\n  default {\n    ${open ? 'deny spoof' : 'force hide'}\n  }\n}\n`,
      );
      const ident = ctx.spawn(`oidentd-${address}`, 'oidentd', [
        '-i',
        '-S',
        '-q',
        '-a',
        address,
        '-p',
        '113',
        '-C',
        conf,
      ]);
      await ctx.waitTcp(address, 79, finger);
      await ctx.waitTcp(address, 113, ident);
    }
  },
};
