import type { Service } from '../../engine/types.ts';
import { acceptsClientRenegotiation } from '../../proto/tls.ts';
import { defineCheck } from '../kit.ts';

/** A port detection saw speak TLS from the first byte. */
const implicitTls = (s: Service) => s.tls !== null;

/**
 * TLS client-initiated renegotiation: each renegotiation costs the server a
 * full handshake (an RSA or ECDHE private-key operation) and the client
 * almost nothing, so one connection can keep a server's CPU busy (THC-SSL-DOS,
 * 2011). OpenSSL 3 servers refuse it unless told otherwise
 * (SSL_OP_ALLOW_CLIENT_RENEGOTIATION, s_server -client_renegotiation);
 * nginx refuses it; TLS 1.3 has no renegotiation at all.
 */
export default defineCheck({
  id: 'vigil.dos.tls-client-renegotiation',
  shortid: 'DOS-TLS-RENEG',
  title: 'TLS server accepts client-initiated renegotiation',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The server renegotiates TLS whenever the client asks: every renegotiation costs the server a full handshake and the client almost nothing, so a few clients can exhaust its CPU (THC-SSL-DOS).',
  solution:
    'Refuse client-initiated renegotiation (the default of OpenSSL 3, nginx and current Apache mod_ssl; OpenSSL: do not set SSL_OP_ALLOW_CLIENT_RENEGOTIATION / ClientRenegotiation) or offer TLS 1.3 only.',
  ports: { where: implicitTls, max: 8 },
  run: async ({ net, port }) =>
    (await acceptsClientRenegotiation(net, port))
      ? 'A TLS 1.2 renegotiation started by the client was completed by the server.'
      : null,
});
