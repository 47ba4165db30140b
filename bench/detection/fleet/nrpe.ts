/**
 * Debian NRPE 4.1 (nagios-nrpe-server), one instance per address (server_address), in the foreground.
 * Weak: no allowed_hosts (NRPE then answers anyone; allowed_hosts=0.0.0.0/0 refuses even 127.0.0.1 on
 * this 4.1.0, measured), with its default anonymous-DH TLS, with -n (in the clear), and with a
 * certificate of the bench CA instead of ADH. Twins: allowed_hosts=127.0.0.200, TLS and clear.
 * dont_blame_nrpe=1 is not planted: Debian's build refuses command arguments whatever it says
 * (docs/audits.md).
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import { addr, none, type Daemon, type Weakness } from './kit.ts';

const K = 43;
const A = (n: number) => addr(K, n);
/** Address, allowed_hosts, and how it speaks: anonymous-DH TLS (the default), clear (-n), TLS with a certificate. */
const CONFIGS: [number, string | null, 'adh' | 'clear' | 'cert'][] = [
  [1, null, 'adh'],
  [2, null, 'clear'],
  [3, null, 'cert'],
  [100, '127.0.0.200', 'adh'],
  [101, '127.0.0.200', 'clear'],
];

const weak = (n: number, label: string): Weakness => ({
  id: `nrpe-open-${n}`,
  family: 'auth',
  label,
  daemon: 'nrpe',
  address: A(n),
  port: 5666,
  proto: 'tcp',
  vigil: { id: /^vigil\.nrpe\.open$/ },
  // nmap's nrpe-enum is intrusive (it runs commands), outside default/safe/vuln.
  nmap: none,
});

export const NRPE: Daemon = {
  kind: 'nrpe',
  binaries: ['nrpe'],
  ports: { tcp: [5666], udp: [] },
  weaknesses: [
    weak(1, 'NRPE answers anyone (no allowed_hosts; anonymous-DH TLS)'),
    weak(2, 'NRPE answers anyone in the clear (no allowed_hosts; nrpe -n)'),
    weak(3, 'NRPE answers anyone (no allowed_hosts; TLS with a certificate, ssl_use_adh=0)'),
  ],
  twins: [
    { address: A(100), note: 'allowed_hosts=127.0.0.200 (TLS)' },
    { address: A(101), note: 'allowed_hosts=127.0.0.200 (nrpe -n)' },
  ],
  async start(ctx) {
    for (const [n, allowed, how] of CONFIGS) {
      const dir = ctx.dir(A(n));
      chmodSync(dir, 0o777); // nrpe drops to the nagios user before it writes its pid file
      let tls = '';
      if (how === 'cert') {
        const pem = await leaf(A(n));
        // 0644: read by nrpe after it drops to the nagios user (a bench key, for loopback only).
        tls = `ssl_cert_file=${ctx.write(join(dir, 'cert.pem'), pem.cert)}\nssl_privatekey_file=${ctx.write(join(dir, 'key.pem'), pem.key, 0o644)}\nssl_use_adh=0\n`;
      }
      const conf = ctx.write(
        join(dir, 'nrpe.cfg'),
        `pid_file=${dir}/nrpe.pid\nserver_port=5666\nserver_address=${A(n)}\nnrpe_user=nagios\nnrpe_group=nagios\n${allowed ? `allowed_hosts=${allowed}\n` : ''}${tls}dont_blame_nrpe=0\ndisable_syslog=1\nlog_file=${dir}/nrpe.log\ncommand[check_users]=/usr/lib/nagios/plugins/check_users -w 5 -c 10\n`,
      );
      const child = ctx.spawn(`nrpe-${A(n)}`, 'nrpe', ['-c', conf, '-f', ...(how === 'clear' ? ['-n'] : [])]);
      await ctx.waitTcp(A(n), 5666, child);
    }
  },
};
