import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import type { Net } from '../../engine/types.ts';
import { nlst, pasvData } from '../../proto/ftp.ts';
import { code, replyDone, talk } from '../../proto/talk.ts';

/**
 * Writes a stranger may make, confirmed by making a harmless one (so these
 * checks are intrusive: advanced audits only): an anonymous FTP upload
 * (a small uniquely named file, deleted at once), an SNMP set of sysContact
 * (or sysName, sysLocation) to the value it already has.
 */
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
        const data = await pasvData(c, net);
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

export default defineCheck({
  id: 'vigil.ftp.anonymous-write',
  shortid: 'FTP-ANON-WRITE',
  title: 'Anonymous FTP users can upload files',
  family: 'FTP',
  categories: ['intrusive', 'vuln'],
  risk: 'high',
  cves: ['CVE-1999-0527'],
  type: 'HOLE',
  qod: 99,
  description:
    'An anonymous FTP user could store a file on the server: it can be used to host malware or stolen data, to fill the disk, or to plant files other services serve.',
  solution: 'Disable anonymous uploads (vsftpd: anon_upload_enable=NO, write_enable=NO) or require a login.',
  ports: { services: ['ftp'], ports: [21] },
  run: ({ net, port }) => ftpUpload(net, port),
});
