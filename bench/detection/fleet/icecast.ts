/**
 * Streaming: Debian Icecast 2 with the icecast.xml Debian ships, moved to
 * A(10):8000: its admin pages accept admin/hackme (a shipped default,
 * vigil.web.vendor-default-login) and source clients source/hackme
 * (vigil.icecast.source-default, advanced only). The twin A(110): the same
 * file with every "hackme" replaced, over HTTPS (its admin pages ask for
 * Basic credentials) with a bench-CA certificate and HSTS
 * (test/helpers/voip-configs.ts, shared with the tests). Addresses: K=66 from N=10 (cups holds N 1 and 100).
 */
import { randomBytes } from 'node:crypto';
import { icecastConf } from '../../../test/helpers/voip-configs.ts';
import { addr, none, type Daemon } from './kit.ts';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { leaf } from '../certs.ts';

const K = 66;
const A = (n: number) => addr(K, n);
const PORT = 8000;

export const ICECAST: Daemon = {
  kind: 'icecast',
  binaries: ['icecast2'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'icecast-admin-default',
      family: 'auth',
      label: 'Icecast admin pages accept the shipped admin/hackme',
      daemon: 'icecast2',
      address: A(10),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.web\.vendor-default-login$/, text: /Icecast/ },
      // http-default-accounts has no Icecast fingerprint (nselib/data/http-default-accounts-fingerprints.lua).
      nmap: none,
    },
    {
      id: 'icecast-source-default',
      family: 'auth',
      label: 'Icecast accepts source clients with the shipped source/hackme',
      daemon: 'icecast2',
      address: A(10),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.icecast\.source-default$/ },
      // No NSE script logs in as an Icecast source.
      nmap: none,
    },
  ],
  twins: [{ address: A(110), note: 'icecast2: the shipped passwords changed, HTTPS with HSTS (bench-CA certificate)' }],
  async start(ctx) {
    for (const n of [10, 110]) {
      const dir = ctx.dir(A(n));
      chmodSync(dir, 0o777); // icecast runs as nobody (changeowner) and writes its logs there
      let pem: string | undefined;
      if (n === 110) {
        const p = await leaf(A(n));
        pem = ctx.write(join(dir, 'icecast.pem'), p.cert + p.key, 0o644);
      }
      const conf = ctx.write(
        join(dir, 'icecast.xml'),
        icecastConf(A(n), PORT, dir, n === 10 ? undefined : `bench-${randomBytes(6).toString('hex')}`, pem),
      );
      const child = ctx.spawn(`icecast-${A(n)}`, 'icecast2', ['-c', conf]);
      await ctx.waitTcp(A(n), PORT, child);
    }
  },
};
