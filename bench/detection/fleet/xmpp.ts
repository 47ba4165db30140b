/**
 * XMPP: Debian Prosody, one process, one VirtualHost per address (the
 * stream names the address; test/helpers/voip-configs.ts writes the
 * configuration the tests use too). A(1): encryption not required, PLAIN
 * before TLS, in-band registration open, a self-signed certificate behind
 * STARTTLS; A(2): SASL ANONYMOUS; the twin A(100): TLS required, no
 * registration, a certificate from the bench CA.
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import { prosodyConf } from '../../../test/helpers/voip-configs.ts';
import type { NmapPort } from '../nmap.ts';
import { addr, script, type Daemon, type Weakness } from './kit.ts';

const K = 64;
const A = (n: number) => addr(K, n);
const PORT = 5222;

/** xmpp-info's pre_tls part: what the server offered before STARTTLS (its info part is after TLS). */
const preTls = (re: RegExp) => (p: NmapPort) => {
  const out = p.scripts.find((s) => s.id === 'xmpp-info')?.output ?? '';
  const m = re.exec(out.split(/^\s*pre_tls:/m)[1] ?? '');
  return m ? `xmpp-info pre_tls: ${m[0]}` : null;
};

const weak = (
  n: number,
  id: string,
  family: Weakness['family'],
  label: string,
  vigil: RegExp,
  nmap: Weakness['nmap'],
): Weakness => ({
  id,
  family,
  label,
  daemon: 'prosody',
  address: A(n),
  port: PORT,
  proto: 'tcp',
  vigil: { id: vigil },
  nmap,
});

export const PROSODY: Daemon = {
  kind: 'xmpp',
  binaries: ['prosody'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    weak(
      1,
      'xmpp-cleartext-login',
      'cleartext',
      'XMPP offers PLAIN before TLS (c2s_require_encryption = false)',
      /^vigil\.xmpp\.cleartext-login$/,
      preTls(/PLAIN/),
    ),
    weak(
      1,
      'xmpp-open-registration',
      'auth',
      'XMPP in-band registration open to anyone (allow_registration)',
      /^vigil\.xmpp\.open-registration$/,
      script('xmpp-info', /In-Band Registration/),
    ),
    weak(
      1,
      'xmpp-starttls-self-signed',
      'tls',
      'XMPP STARTTLS with a self-signed certificate',
      /^vigil\.tls\.cert-self-signed$/,
      script('ssl-cert', /Issuer: commonName=127\.14\.64\.1/),
    ),
    weak(
      2,
      'xmpp-anonymous-login',
      'auth',
      'XMPP SASL ANONYMOUS (authentication = "anonymous")',
      /^vigil\.xmpp\.anonymous-login$/,
      script('xmpp-info', /ANONYMOUS/),
    ),
  ],
  twins: [
    { address: A(100), note: 'c2s_require_encryption = true, no registration, no anonymous, bench-CA certificate' },
  ],
  async start(ctx) {
    const dir = ctx.dir('prosody');
    ctx.dir('prosody/data');
    const pem = async (n: number, selfSigned: boolean) => {
      const p = await leaf(A(n), { selfSigned });
      return { cert: ctx.write(join(dir, `${n}.crt`), p.cert), key: ctx.write(join(dir, `${n}.key`), p.key, 0o600) };
    };
    const conf = ctx.write(
      join(dir, 'prosody.cfg.lua'),
      prosodyConf(dir, [A(1), A(2), A(100)], PORT, [
        { domain: A(1), mode: 'open', ...(await pem(1, true)) },
        { domain: A(2), mode: 'anonymous', ...(await pem(2, false)) },
        { domain: A(100), mode: 'hardened', ...(await pem(100, false)) },
      ]),
    );
    const child = ctx.spawn('prosody', 'prosody', ['--config', conf, '-F']);
    for (const n of [1, 2, 100]) await ctx.waitTcp(A(n), PORT, child);
  },
};
