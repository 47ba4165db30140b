/**
 * Does a TLS server ask every client for a certificate? In TLS 1.2 the
 * server's first flight travels in the clear: ServerHello, Certificate,
 * [ServerKeyExchange], [CertificateRequest (13)], ServerHelloDone (14)
 * (RFC 5246 §7.4). One hand-built TLS 1.2 ClientHello (tls-hello.ts), the
 * flight read up to ServerHelloDone, and the connection dropped before any
 * key exchange. Node's TLS client cannot tell: a server that checks the
 * certificate after the handshake (Unbound's remote control, measured)
 * completes it with a client that has none, then closes. null when the
 * server does not answer TLS 1.2 (TLS 1.3 encrypts its CertificateRequest).
 */
import type { Net } from '../engine/types.ts';
import { clientHello, COMMON_SUITES, TLS12 } from './tls-hello.ts';
import { talk } from './talk.ts';

/** The handshake message types of the server's first flight, once it is whole (ServerHelloDone); null before, or on an alert. */
export function flightTypes(b: Buffer): number[] | null {
  const hs: Buffer[] = [];
  for (let at = 0; at + 5 <= b.length; ) {
    const len = b.readUInt16BE(at + 3);
    if (b[at] !== 22 || at + 5 + len > b.length) break;
    hs.push(b.subarray(at + 5, at + 5 + len));
    at += 5 + len;
  }
  const msgs = Buffer.concat(hs);
  const types: number[] = [];
  for (let at = 0; at + 4 <= msgs.length; ) {
    types.push(msgs[at]!);
    if (msgs[at] === 14) return types;
    at += 4 + msgs.readUIntBE(at + 1, 3);
  }
  return null;
}

/** True when the TLS 1.2 flight holds a CertificateRequest, false when it does not, null when none came. */
export function requestsClientCertificate(net: Net, port: number): Promise<boolean | null> {
  return talk(net, port, async (c) => {
    const flight = await c.ask(clientHello(TLS12, [...COMMON_SUITES, 0x00ff]), 3000, (b) => flightTypes(b) !== null);
    const types = flightTypes(flight);
    return types ? types.includes(13) : null;
  });
}
