/**
 * Writes a stranger may make, confirmed by making a harmless one (so these
 * checks are intrusive: advanced audits only): an anonymous FTP upload
 * (a small uniquely named file, deleted at once), an SNMP set of sysContact
 * (or sysName, sysLocation) to the value it already has.
 */
import { randomBytes } from 'node:crypto';
import { Conv } from '../detect/io.ts';
import type { Check, Net } from '../types.ts';
import { code, portCheck, portsOf, replyDone, shown, talk } from './services-kit.ts';
import { snmpMessage, snmpValue } from './snmp-ber.ts';

/** Directories anonymous uploads usually go to; the login directory first. */
const FTP_DIRS = ['', 'incoming', 'upload', 'uploads', 'pub/incoming', 'pub', 'public', 'tmp'];

/**
 * STOR through a passive data connection, to the audited address only (a PASV address elsewhere is ignored:
 * no FTP bounce).
 */
async function ftpUpload(net: Net, port: number): Promise<string | null> {
  return talk(
    net,
    port,
    async (c) => {
      if (code(await c.read(3000, replyDone)) !== 220) return null;
      const user = code(await c.ask('USER anonymous\r\n', 3000, replyDone));
      if (
        user !== 230 &&
        (user !== 331 || code(await c.ask('PASS vigil-audit@example.invalid\r\n', 3000, replyDone)) !== 230)
      )
        return null;
      await c.ask('TYPE I\r\n', 3000, replyDone);
      const name = `vigil-audit-${randomBytes(6).toString('hex')}.txt`;
      // The usual upload directories, then what the root lists (names without a file extension).
      const listed = (await nlst(c, net)).filter((n) => /^[\w.-]{1,64}$/.test(n) && !/\.\w{1,4}$/.test(n)).slice(0, 6);
      for (const dir of [...new Set([...FTP_DIRS, ...listed])]) {
        if (dir && code(await c.ask(`CWD /${dir}\r\n`, 3000, replyDone)) !== 250) continue;
        const pasv = (await c.ask('PASV\r\n', 3000, replyDone)).toString('latin1');
        const m = /227 .*?\(?(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\)?/.exec(pasv);
        if (!m) return null;
        const data = await net.connect(Number(m[5]) * 256 + Number(m[6]), { timeoutMs: 3000 }).catch(() => null);
        if (!data) return null;
        const started = code(await c.ask(`STOR ${name}\r\n`, 3000, replyDone));
        if (started !== 150 && started !== 125) {
          data.destroy();
          continue;
        }
        await new Promise<void>((res) =>
          data.end('Vigil security audit: anonymous upload test; this file is deleted at once.\n', () => res()),
        );
        // The buffer still holds the 150: wait for the final reply after it.
        const done = code(await c.read(5000, (b) => replyDone(b) && code(b) >= 200));
        if (done !== 226 && done !== 250) continue;
        const removed = code(await c.ask(`DELE ${name}\r\n`, 3000, replyDone)) === 250;
        return `anonymous STOR of ${name} in /${dir} succeeded (${done})${removed ? ', file deleted again' : '; DELE refused: the file is still there'}`;
      }
      return null;
    },
    20_000,
  );
}

/** NLST of the login directory through a passive data connection to the audited address; [] on any failure. */
async function nlst(c: Conv, net: Net): Promise<string[]> {
  const m = /227 .*?\(?(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\)?/.exec(
    (await c.ask('PASV\r\n', 3000, replyDone)).toString('latin1'),
  );
  if (!m) return [];
  const data = await net.connect(Number(m[5]) * 256 + Number(m[6]), { timeoutMs: 3000 }).catch(() => null);
  if (!data) return [];
  const listing = new Conv(data, 3000, 16384);
  const started = code(await c.ask('NLST\r\n', 3000, replyDone));
  const text = started === 150 || started === 125 ? (await listing.read(3000, () => false)).toString('latin1') : '';
  listing.close();
  if (started === 150 || started === 125) await c.read(3000, (b) => replyDone(b) && code(b) >= 200);
  return text
    .split(/\r?\n/)
    .map((l) => l.trim().replace(/^\.?\//, ''))
    .filter(Boolean);
}

export const ftpAnonymousWrite: Check = portCheck(
  {
    id: 'vigil.ftp.anonymous-write',
    shortid: 'FTP-ANON-WRITE',
    title: 'Anonymous FTP users can upload files',
    category: 'FTP',
    risk: 'high',
    cves: ['CVE-1999-0527'],
    type: 'HOLE',
    qod: 99,
    intrusive: true,
    description:
      'An anonymous FTP user could store a file on the server: it can be used to host malware or stolen data, to fill the disk, or to plant files other services serve.',
    solution: 'Disable anonymous uploads (vsftpd: anon_upload_enable=NO, write_enable=NO) or require a login.',
  },
  (h) => portsOf(h, ['ftp'], [21]),
  ftpUpload,
);

/** Writable MIB-2 system objects: sysContact.0, sysName.0, sysLocation.0. */
const SYSTEM_OIDS = {
  sysContact: [1, 3, 6, 1, 2, 1, 1, 4, 0],
  sysName: [1, 3, 6, 1, 2, 1, 1, 5, 0],
  sysLocation: [1, 3, 6, 1, 2, 1, 1, 6, 0],
};
const COMMUNITIES = ['public', 'private'];

async function snmpWrite(net: Net): Promise<string | null> {
  let id = randomBytes(2).readUInt16BE(0);
  for (const community of COMMUNITIES) {
    for (const [name, oid] of Object.entries(SYSTEM_OIDS)) {
      const got = await net
        .udpRequest(161, snmpMessage(community, 0xa0, ++id, oid, null), { timeoutMs: 2000 })
        .catch(() => null);
      const value = got ? snmpValue(got, id) : null;
      if (!value || value.errorStatus !== 0 || value.tag !== 0x04) break; // community not accepted: next one
      // The same value back: nothing changes on the agent, but only a community with write access gets errorStatus 0.
      const set = await net
        .udpRequest(161, snmpMessage(community, 0xa3, ++id, oid, value.raw), { timeoutMs: 2000 })
        .catch(() => null);
      const r = set ? snmpValue(set, id) : null;
      if (r && r.errorStatus === 0)
        return `community "${community}" set ${name}.0 (to its current value "${shown(value.raw.toString('latin1'), 60)}")`;
    }
  }
  return null;
}

export const snmpWritable: Check = {
  id: 'vigil.snmp.write',
  shortid: 'SNMP-WRITE',
  title: 'SNMP community allows writes',
  category: 'General',
  risk: 'high',
  cves: ['CVE-2002-0013'],
  type: 'HOLE',
  qod: 99,
  description:
    'A default SNMP community ("public" or "private") has write access: anyone can change the agent\'s configuration, and on many devices routing, interfaces or the running configuration.',
  solution:
    'Remove the rwcommunity lines from snmpd.conf (or restrict them to a management host) and use SNMPv3 with authentication for writes.',
  active: true,
  intrusive: true,
  dos: false,
  async run(_host, net) {
    const detail = await snmpWrite(net);
    return detail ? [{ port: 161, detail }] : [];
  },
};

export const WRITE_CHECKS: readonly Check[] = [ftpAnonymousWrite, snmpWritable];
