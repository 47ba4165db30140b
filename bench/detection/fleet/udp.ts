/**
 * UDP services: Debian tftpd-hpa and snmpd (net-snmp).
 * TFTP: weak, a readable boot/config area and a writable one (--create);
 * twin, --secure on an empty directory, no create. SNMP: weak, the
 * default "public" read community, and a "private" write community; twin,
 * one read-only community nobody would guess.
 * NTPsec is not in the fleet: its ntpd binds 0.0.0.0:123 and 127.0.0.1
 * whatever -I or "interface" says (seen with ntpsec 1.2.2), and answered
 * no mode 6 query on loopback here.
 */
import { join } from 'node:path';
import { addr, any, grep, makeDir, script, type Daemon, userIds } from './kit.ts';

const TK = 17;
export const TFTPD: Daemon = {
  kind: 'tftpd-hpa',
  binaries: ['in.tftpd'],
  ports: { tcp: [], udp: [69] },
  weaknesses: [
    {
      id: 'tftp-read',
      family: 'udp',
      label: 'TFTP serves files to anyone (boot and router configs)',
      daemon: 'tftpd-hpa',
      address: addr(TK, 1),
      port: 69,
      proto: 'udp',
      vigil: { text: /tftp/i },
      nmap: any(script('tftp-enum', /\S/), grep(/tftp/)),
    },
    {
      id: 'tftp-write',
      family: 'udp',
      label: 'TFTP accepts uploads (--create, writable root)',
      daemon: 'tftpd-hpa',
      address: addr(TK, 2),
      port: 69,
      proto: 'udp',
      vigil: { text: /tftp/i },
      nmap: grep(/tftp/),
    },
  ],
  twins: [{ address: addr(TK, 100), note: '--secure, empty directory, no --create' }],
  async start(ctx) {
    const RRQ = Buffer.concat([Buffer.from([0, 1]), Buffer.from('nothing-here\0octet\0')]);
    for (const n of [1, 2, 100]) {
      // The owner by name: Debian numbers its system users in the order packages were installed.
      const dir = makeDir(ctx.dir(`${addr(TK, n)}/root`), userIds('tftp'), n === 2 ? 0o777 : 0o755);
      if (n === 1)
        for (const f of ['pxelinux.cfg/default', 'startup-config', 'running-config', 'config.txt', 'boot.ini'])
          ctx.write(join(dir, f), `# ${f} (bench)\nenable secret 5 $1$bench$notasecret\n`);
      const args = ['-L', '-u', 'tftp', '-a', `${addr(TK, n)}:69`, '-s', dir];
      if (n === 2) args.push('-c');
      const child = ctx.spawn(`tftpd-${n}`, 'in.tftpd', args);
      await ctx.waitUdp(addr(TK, n), 69, RRQ, child);
    }
  },
};

const SK = 18;
/** SNMPv1 GetRequest sysDescr.0 with community "public": enough to see the agent answer. */
const snmpGet = (community: string) => {
  const oid = Buffer.from([0x06, 0x08, 0x2b, 0x06, 0x01, 0x02, 0x01, 0x01, 0x01, 0x00]);
  const varbind = Buffer.concat([Buffer.from([0x30, oid.length + 2]), oid, Buffer.from([0x05, 0x00])]);
  const list = Buffer.concat([Buffer.from([0x30, varbind.length]), varbind]);
  const pdu = Buffer.concat([
    Buffer.from([0xa0, list.length + 9, 0x02, 0x01, 0x01, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00]),
    list,
  ]);
  const c = Buffer.from(community);
  const body = Buffer.concat([Buffer.from([0x02, 0x01, 0x00, 0x04, c.length]), c, pdu]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
};
export const SNMPD: Daemon = {
  kind: 'snmpd',
  binaries: ['snmpd'],
  ports: { tcp: [], udp: [161] },
  weaknesses: [
    {
      id: 'snmp-public',
      family: 'udp',
      label: 'SNMP community "public" (read)',
      daemon: 'snmpd',
      address: addr(SK, 1),
      port: 161,
      proto: 'udp',
      vigil: { text: /snmp|communit/i },
      nmap: any(script('snmp-sysdescr', /Linux/), grep(/snmp-\w+: [\s\S]*Linux vm/)),
    },
    {
      id: 'snmp-write',
      family: 'auth',
      label: 'SNMP community "private" with write access',
      daemon: 'snmpd',
      address: addr(SK, 2),
      port: 161,
      proto: 'udp',
      vigil: { text: /writ|private|rwcommunity/i },
      nmap: script('snmp-brute', /private/),
    },
  ],
  twins: [{ address: addr(SK, 100), note: 'one read-only community nobody would guess' }],
  async start(ctx) {
    const configs: [number, string, string][] = [
      [1, 'rocommunity public', 'public'],
      [2, 'rwcommunity private', 'private'],
      [100, 'rocommunity Hq7-bench-ro-k9', 'Hq7-bench-ro-k9'],
    ];
    for (const [n, line, community] of configs) {
      const root = ctx.dir(addr(SK, n));
      const conf = ctx.write(
        join(root, 'snmpd.conf'),
        `${line}\nsysLocation Rack 4, shop DC\nsysContact ops@shop.example\n`,
      );
      const child = ctx.spawn(
        `snmpd-${n}`,
        'snmpd',
        ['-f', '-Lo', '-C', '-c', conf, '-p', join(root, 'pid'), '-I', '-smux', `udp:${addr(SK, n)}:161`],
        { env: { ...process.env, SNMP_PERSISTENT_DIR: root } },
      );
      await ctx.waitUdp(addr(SK, n), 161, snmpGet(community), child);
    }
  },
};
