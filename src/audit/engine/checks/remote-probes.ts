/** Wire probes for the remote-access checks: VNC security types, SMBv1 negotiate, SSH KEXINIT. */
import { parseKexinit } from '../detect/ssh.ts';
import type { Net } from '../types.ts';
import { talk } from './services-kit.ts';

/** The security types a VNC server offers (RFB 3.7+: a list; 3.3: the one it chose). */
export function vncSecurityTypes(net: Net, port: number): Promise<number[] | null> {
  return talk(net, port, async (c) => {
    const hello = (await c.read(3000, (b) => b.length >= 12)).toString('latin1');
    const m = /^RFB (\d{3})\.(\d{3})\n/.exec(hello);
    if (!m) return null;
    const minor = Number(m[2]);
    const version = minor >= 8 ? 'RFB 003.008\n' : minor === 7 ? 'RFB 003.007\n' : 'RFB 003.003\n';
    const r = await c.ask(version, 3000, (b) => (minor >= 7 ? b.length >= 1 && b.length >= 1 + b[0]! : b.length >= 4));
    if (minor < 7) return r.length >= 4 ? [r.readUInt32BE(0)] : null;
    if (r.length < 1 || r[0] === 0) return null;
    return [...r.subarray(1, 1 + r[0]!)];
  });
}

/** SMB1 NEGOTIATE offering only "NT LM 0.12": an SMB1 answer means SMBv1 is enabled. */
const SMB1_NEGOTIATE = (() => {
  const dialect = Buffer.concat([Buffer.from([0x02]), Buffer.from('NT LM 0.12\0')]);
  const header = Buffer.alloc(32);
  header.write('\xffSMB', 0, 'latin1');
  header[4] = 0x72; // SMB_COM_NEGOTIATE
  header[9] = 0x18; // flags: canonical paths, case-insensitive
  header.writeUInt16LE(0xc801, 10); // flags2: unicode, NT status, long names
  const body = Buffer.concat([Buffer.from([0x00]), Buffer.from([dialect.length & 0xff, dialect.length >> 8]), dialect]);
  const smb = Buffer.concat([header, body]);
  const nbss = Buffer.from([0x00, 0x00, smb.length >> 8, smb.length & 0xff]);
  return Buffer.concat([nbss, smb]);
})();

export function smb1Accepted(net: Net, port: number): Promise<boolean | null> {
  return talk(net, port, async (c) => {
    const r = await c.ask(SMB1_NEGOTIATE, 3000, (b) => b.length >= 4 && b.length >= 4 + b.readUInt16BE(2));
    if (r.length < 13) return null;
    // An SMB1 reply with status 0 and a dialect index other than 0xFFFF (none accepted).
    if (r.subarray(4, 8).toString('latin1') !== '\xffSMB') return false;
    const status = r.readUInt32LE(9);
    const dialect = r.length >= 39 ? r.readUInt16LE(37) : 0xffff;
    return status === 0 && dialect !== 0xffff;
  });
}

/** The server's KEXINIT lists, read after exchanging identification lines. */
export function sshAlgorithms(net: Net, port: number): Promise<Record<string, string> | null> {
  return talk(net, port, async (c) => {
    const id = await c.read(3000, (b) => b.includes(10));
    const line = id.toString('latin1').split(/\r?\n/)[0] ?? '';
    if (!line.startsWith('SSH-2') && !line.startsWith('SSH-1.99')) return null;
    const rest = id.subarray(id.indexOf(10) + 1);
    c.take();
    c.send('SSH-2.0-Vigil_Audit\r\n');
    const more = await c.read(
      3000,
      (b) =>
        Buffer.concat([rest, b]).length >= 4 &&
        Buffer.concat([rest, b]).length >= Buffer.concat([rest, b]).readUInt32BE(0) + 4,
    );
    return parseKexinit(Buffer.concat([rest, more]));
  });
}
