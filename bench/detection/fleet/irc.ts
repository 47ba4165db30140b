/**
 * IRC: Debian ngIRCd on 6667. A(20): the operator block of ngIRCd's sample
 * configuration (TheOper/ThePwd); the twin A(120): the same block with a
 * password of its own (test/helpers/voip-configs.ts, shared with the
 * tests). Addresses: K=64 from N=20 (prosody holds N 1, 2 and 100).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ngircdConf } from '../../../test/helpers/voip-configs.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 64;
const A = (n: number) => addr(K, n);
const PORT = 6667;

export const NGIRCD: Daemon = {
  kind: 'irc',
  binaries: ['ngircd'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'irc-oper-default',
      family: 'auth',
      label: "IRC operator with the sample configuration's password (ngircd TheOper/ThePwd)",
      daemon: 'ngircd',
      address: A(20),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.irc\.oper-default$/ },
      // irc-brute guesses nicknames' passwords; no NSE script tries OPER.
      nmap: none,
    },
  ],
  twins: [{ address: A(120), note: 'ngircd: the operator password changed' }],
  async start(ctx) {
    for (const [n, password] of [
      [20, 'ThePwd'],
      [120, `bench${randomBytes(8).toString('hex')}`],
    ] as const) {
      const dir = ctx.dir(A(n));
      const conf = ctx.write(join(dir, 'ngircd.conf'), ngircdConf(A(n), PORT, dir, password));
      const child = ctx.spawn(`ngircd-${A(n)}`, 'ngircd', ['-n', '-f', conf]);
      await ctx.waitTcp(A(n), PORT, child);
    }
  },
};
