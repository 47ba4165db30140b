/**
 * TLS client-initiated renegotiation: each renegotiation costs the server a
 * full handshake (an RSA or ECDHE private-key operation) and the client
 * almost nothing, so one connection can keep a server's CPU busy (THC-SSL-DOS,
 * 2011). OpenSSL 3 servers refuse it unless told otherwise
 * (SSL_OP_ALLOW_CLIENT_RENEGOTIATION, s_server -client_renegotiation);
 * nginx refuses it; TLS 1.3 has no renegotiation at all.
 */
import type { TLSSocket } from 'node:tls';
import type { Check, Finding, HostFacts, Net } from '../types.ts';

const WAIT_MS = 4000;

/** True when the server completed a renegotiation the client asked for (TLS 1.2). */
export async function acceptsClientRenegotiation(net: Net, port: number): Promise<boolean> {
  let socket: TLSSocket;
  try {
    socket = await net.connectTls(port, {
      timeoutMs: 5000,
      maxVersion: 'TLSv1.2',
      minVersion: 'TLSv1',
      ciphers: 'ALL:@SECLEVEL=0',
    });
  } catch {
    return false;
  }
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    // A refusing server sends a no_renegotiation alert or closes; one that ignores the request never answers.
    const timer = setTimeout(() => done(false), WAIT_MS);
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
    try {
      const started = socket.renegotiate({ rejectUnauthorized: false }, (err) => done(!err));
      if (!started) done(false);
    } catch {
      done(false);
    }
  });
}

export const tlsClientRenegotiation: Check = {
  id: 'vigil.dos.tls-client-renegotiation',
  shortid: 'DOS-TLS-RENEG',
  title: 'TLS server accepts client-initiated renegotiation',
  category: 'Denial of Service',
  risk: 'low',
  cves: [],
  type: 'NOTE',
  description:
    'The server renegotiates TLS whenever the client asks: every renegotiation costs the server a full handshake and the client almost nothing, so a few clients can exhaust its CPU (THC-SSL-DOS).',
  solution:
    'Refuse client-initiated renegotiation (the default of OpenSSL 3, nginx and current Apache mod_ssl; OpenSSL: do not set SSL_OP_ALLOW_CLIENT_RENEGOTIATION / ClientRenegotiation) or offer TLS 1.3 only.',
  intrusive: false,
  dos: true,
  active: true,
  async run(host: HostFacts, net: Net): Promise<Finding[]> {
    const ports = host.services
      .filter((s) => s.tls !== null)
      .map((s) => s.port)
      .slice(0, 8);
    const accepted = await Promise.all(ports.map((port) => acceptsClientRenegotiation(net, port)));
    return ports
      .filter((_, i) => accepted[i])
      .map(
        (port): Finding => ({
          port,
          detail: 'A TLS 1.2 renegotiation started by the client was completed by the server.',
        }),
      );
  },
};
