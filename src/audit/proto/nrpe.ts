/**
 * NRPE, the Nagios remote plugin executor (port 5666), query packets of
 * protocol version 2 (common.h of NRPE 2.x to 4.x: int16 version, int16
 * type, uint32 CRC-32 of the packet with that field zeroed, int16 result,
 * a 1024-byte NUL-terminated buffer, 2 bytes of padding: 1036 bytes). Every
 * NRPE from 2.x to 4.x answers a version-2 query (4.x answers version 3 only
 * to a version-3 query). The command `_NRPE_CHECK` runs nothing: the daemon
 * answers its own version ("NRPE v4.1.0"). NRPE wraps the exchange in TLS
 * unless started with -n, by default with anonymous Diffie-Hellman (no
 * certificate: ssl_use_adh), so the TLS attempt offers ADH suites at
 * SECLEVEL=0 and at most TLS 1.2 (TLS 1.3 has no anonymous suites), then at node's defaults.
 * A daemon whose allowed_hosts leaves the client out closes the connection
 * without answering (measured on Debian's nrpe 4.1.0: "Host 127.0.0.1 is
 * not allowed to talk to us!").
 */
import type { TLSSocket } from 'node:tls';
import type { Net } from '../engine/types.ts';
import { Conv } from './conv.ts';

const SIZE = 1036;
const QUERY = 1;
const RESPONSE = 2;

/** CRC-32 (IEEE, as NRPE's calculate_crc32); zlib.crc32 is newer than the Node 20.12 Vigil supports. */
const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const byte of b) c = TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function nrpeQuery(command: string): Buffer {
  const p = Buffer.alloc(SIZE);
  p.writeInt16BE(2, 0);
  p.writeInt16BE(QUERY, 2);
  p.write(command.slice(0, 1023), 10, 'latin1');
  p.writeUInt32BE(crc32(p), 4);
  return p;
}

export interface NrpeAnswer {
  /** The daemon's text ("NRPE v4.1.0"). */
  text: string;
  /** Plugin state: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN. */
  result: number;
  tls: boolean;
  /** Negotiated suite when over TLS. */
  cipher?: string;
}

/** A version-2 response packet whose CRC holds; its text and result. */
function parse(b: Buffer): Omit<NrpeAnswer, 'tls'> | null {
  if (b.length < SIZE || b.readInt16BE(0) !== 2 || b.readInt16BE(2) !== RESPONSE) return null;
  const p = Buffer.from(b.subarray(0, SIZE));
  const crc = p.readUInt32BE(4);
  p.writeUInt32BE(0, 4);
  if (crc32(p) !== crc) return null;
  const body = p.subarray(10, 10 + 1024);
  const end = body.indexOf(0);
  return { result: p.readInt16BE(8), text: body.subarray(0, end < 0 ? 1024 : end).toString('latin1') };
}

/** How to connect: in the clear; TLS up to 1.2 (ADH); TLS at node's defaults (a certificate NRPE set to TLS 1.3 only). */
type Mode = 'plain' | 'tls12' | 'tls';

async function ask(net: Net, port: number, command: string, mode: Mode): Promise<NrpeAnswer | null> {
  let conv: Conv | null = null;
  try {
    const socket =
      mode === 'plain'
        ? await net.connect(port, { timeoutMs: 3000 })
        : await net.connectTls(port, {
            timeoutMs: 3000,
            minVersion: 'TLSv1',
            ...(mode === 'tls12' ? { maxVersion: 'TLSv1.2' } : {}),
            ciphers: 'ALL:@SECLEVEL=0',
          });
    conv = new Conv(socket, 4000);
    const answer = parse(await conv.ask(nrpeQuery(command), 4000, (b) => b.length >= SIZE));
    if (!answer) return null;
    const cipher = mode === 'plain' ? undefined : (socket as TLSSocket).getCipher()?.name;
    return { ...answer, tls: mode !== 'plain', ...(cipher ? { cipher } : {}) };
  } catch {
    return null;
  } finally {
    conv?.close();
  }
}

/**
 * One query, in the clear first and then over TLS, unless detection already saw TLS there: a TLS NRPE
 * drops a clear packet at once (its handshake fails), while a clear one would wait for the rest of a
 * ClientHello's 1036 bytes until its connection_timeout.
 */
export async function nrpeAsk(net: Net, port: number, command: string, tlsSeen: boolean): Promise<NrpeAnswer | null> {
  for (const mode of [...(tlsSeen ? [] : ['plain' as const]), 'tls12' as const, 'tls' as const]) {
    const answer = await ask(net, port, command, mode);
    if (answer) return answer;
  }
  return null;
}
