/** Windows desktop services: RDP (X.224 connection request), SMB (negotiate). */
import type { Family } from './family.ts';

const RDP_PROTOCOLS: Record<number, string> = { 0: 'RDP', 1: 'TLS', 2: 'CredSSP', 4: 'RDSTLS', 8: 'CredSSP-EX' };

export const rdp: Family = {
  id: 'rdp',
  ports: [3389],
  async probe(conv, s) {
    // TPKT + X.224 CR + RDP_NEG_REQ offering TLS | CredSSP.
    const req = Buffer.from('030000130ee000000000000100080003000000', 'hex');
    const r = await conv.ask(req, 1500, (b) => b.length >= 4 && b.length >= b.readUInt16BE(2));
    if (r.length < 11 || r[0] !== 3 || r[1] !== 0 || (r[5]! & 0xf0) !== 0xd0) return false;
    Object.assign(s, { name: 'ms-wbt-server', product: 'Microsoft Terminal Services' });
    if (r.length >= 19 && r[11] === 2)
      s.extra.selectedProtocol = RDP_PROTOCOLS[r.readUInt32LE(15)] ?? String(r.readUInt32LE(15));
    if (r.length >= 19 && r[11] === 3) s.extra.negotiationFailure = String(r.readUInt32LE(15));
    return true;
  },
};

/** SMB1 negotiate offering NT LM 0.12 and SMB 2.002/2.???: SMB2 servers answer in SMB2. */
function negotiate(): Buffer {
  const dialects = Buffer.concat(
    ['NT LM 0.12', 'SMB 2.002', 'SMB 2.???'].map((d) => Buffer.from(`\x02${d}\0`, 'latin1')),
  );
  const header = Buffer.alloc(32);
  Buffer.from([0xff, 0x53, 0x4d, 0x42, 0x72]).copy(header);
  header[9] = 0x18;
  header.writeUInt16LE(0xc853, 10);
  const body = Buffer.concat([Buffer.from([0]), Buffer.from([dialects.length & 0xff, dialects.length >> 8]), dialects]);
  const msg = Buffer.concat([header, body]);
  const nb = Buffer.alloc(4);
  nb.writeUInt32BE(msg.length, 0);
  return Buffer.concat([nb, msg]);
}

export const smb: Family = {
  id: 'smb',
  ports: [445, 139],
  async probe(conv, s) {
    const r = await conv.ask(negotiate(), 1500, (b) => b.length >= 4 && b.length >= (b.readUInt32BE(0) & 0xffffff) + 4);
    if (r.length < 8) return false;
    const magic = r.subarray(4, 8).toString('latin1');
    if (magic !== '\xffSMB' && magic !== '\xfeSMB') return false;
    Object.assign(s, { name: 'microsoft-ds', product: null });
    if (magic === '\xfeSMB' && r.length >= 4 + 64 + 6) {
      const dialect = r.readUInt16LE(4 + 64 + 4);
      s.extra.smbDialect =
        dialect === 0x02ff
          ? 'SMB 2.???'
          : `SMB ${(dialect >> 8).toString(16)}.${(dialect & 0xff).toString(16).padStart(2, '0')}`;
    } else s.extra.smbDialect = 'SMB1';
    return true;
  },
};
