/**
 * Debian Samba smbd, one instance per config (own lock/state/private
 * directories; `bind interfaces only`, so its address goes on `lo`).
 * Weak: a guest-writable share with SMBv1 allowed (server min protocol =
 * NT1) — and Samba is not Windows: no EternalBlue CVE applies to it;
 * message signing not required (Samba's default for a standalone server).
 * Twin: signing mandatory, no guest (restrict anonymous = 2), SMB2+ only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addr, any, script, type Daemon } from './kit.ts';

const K = 15;
const A = (n: number) => addr(K, n);

export const SAMBA: Daemon = {
  kind: 'samba',
  binaries: ['smbd'],
  ports: { tcp: [139, 445], udp: [] },
  onLo: [1, 2, 100].map(A),
  wrongCves: (cves) => cves.some((c) => /CVE-2017-014[3-8]|MS17-010/.test(c)), // EternalBlue and friends: Windows SMBv1 (srv.sys), never Samba
  weaknesses: [
    {
      id: 'smb-guest-share',
      family: 'smb',
      label: 'guest access to a writable share',
      daemon: 'samba',
      address: A(1),
      port: 445,
      proto: 'tcp',
      vigil: { text: /guest|anonymous|null session/i },
      nmap: any(
        script('smb-enum-shares', /public[\s\S]*(Anonymous access: READ|Current user access: READ)/),
        script('smb-security-mode', /guest/),
      ),
    },
    {
      id: 'smb-v1',
      family: 'smb',
      label: 'SMBv1 accepted (Samba: a NOTE, not EternalBlue)',
      daemon: 'samba',
      address: A(1),
      port: 445,
      proto: 'tcp',
      vigil: { text: /smb ?v?1|nt1|nt lm 0\.12/i },
      nmap: any(script('smb-protocols', /NT LM 0\.12|SMBv1/), script('smb-os-discovery', /Samba/)),
    },
    {
      id: 'smb-signing-optional',
      family: 'smb',
      label: 'SMB message signing not required',
      daemon: 'samba',
      address: A(2),
      port: 445,
      proto: 'tcp',
      vigil: { text: /signing/i },
      nmap: any(
        script('smb2-security-mode', /enabled but not required/),
        script('smb-security-mode', /message_signing: disabled|supported/),
      ),
    },
  ],
  twins: [{ address: A(100), note: 'server signing = mandatory, restrict anonymous = 2, no guest, SMB2+ only' }],
  async start(ctx) {
    const configs: [number, string, string][] = [
      [
        1,
        'server signing = mandatory\nserver min protocol = NT1\nmap to guest = Bad User\n',
        '[public]\npath = SHARE\nguest ok = yes\nread only = no\n',
      ],
      [
        2,
        'server signing = disabled\nserver min protocol = SMB2_10\nmap to guest = Never\nrestrict anonymous = 2\n',
        '[data]\npath = SHARE\nguest ok = no\nread only = yes\n',
      ],
      [
        100,
        'server signing = mandatory\nserver min protocol = SMB2_10\nmap to guest = Never\nrestrict anonymous = 2\n',
        '[data]\npath = SHARE\nguest ok = no\nread only = yes\n',
      ],
    ];
    for (const [n, global, share] of configs) {
      const r = ctx.dir(A(n));
      const dirs = ['lock', 'state', 'cache', 'private', 'run', 'ncalrpc'].map((d) => ctx.dir(`${A(n)}/${d}`));
      const data = ctx.dir(`${A(n)}/share`);
      ctx.run('chmod', ['0777', data]);
      ctx.write(join(data, 'prices.xlsx'), 'x');
      const conf = ctx.write(
        join(r, 'smb.conf'),
        `[global]
workgroup = SHOP
netbios name = SHOPFS${n}
server role = standalone server
interfaces = ${A(n)}/32
bind interfaces only = yes
smb ports = 445
disable netbios = yes
lock directory = ${dirs[0]}
state directory = ${dirs[1]}
cache directory = ${dirs[2]}
private dir = ${dirs[3]}
pid directory = ${dirs[4]}
ncalrpc dir = ${dirs[5]}
log file = ${r}/log.%m
passdb backend = tdbsam:${dirs[3]}/passdb.tdb
load printers = no
printing = bsd
printcap name = /dev/null
disable spoolss = yes
${global}
${share.replace('SHARE', data)}`,
      );
      const child = ctx.spawn(`smbd-${A(n)}`, 'smbd', [
        '--foreground',
        '--no-process-group',
        '--debug-stdout',
        '-s',
        conf,
      ]);
      // smbd starts samba-dcerpcd and its rpcd_* helpers on demand, in a session of their own: find them by
      // our config path.
      ctx.onStop(() => {
        for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
          try {
            if (readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(conf)) process.kill(Number(pid), 'SIGTERM');
          } catch {
            // gone, or not ours to read
          }
        }
      });
      await ctx.waitTcp(A(n), 445, child, 30_000);
    }
  },
};
