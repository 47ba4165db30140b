import { defineCheck } from '../kit.ts';
import { certDetail } from './lib/cert.ts';
import { speaksTls } from './lib/targets.ts';
import { verifyChain } from '../../proto/tls-trust.ts';

/**
 * A certificate whose chain leads to no CA the audit trusts (Node's roots, the system's bundle, the
 * operator's --audit-ca). A self-signed leaf is the cert-self-signed check's finding and never this
 * one's, so one certificate never carries both; validity dates and names are left to cert-expired and
 * cert-hostname (proto/tls-trust.ts looks at issuers only).
 */
export default defineCheck({
  id: 'vigil.tls.cert-untrusted',
  shortid: 'TLS-CERT-UNTRUSTED',
  title: 'TLS certificate from an untrusted CA',
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    "The certificate's chain does not lead to a certificate authority the clients trust (the public CAs of Mozilla's list that Node ships, the operating system's bundle, or the CAs the Vigil operator named with --audit-ca), or an intermediate certificate is missing: clients that verify refuse the connection, and those told to accept it cannot tell the server from an impostor. Implicit TLS and every STARTTLS protocol are examined.",
  solution:
    'Install a certificate from a CA the clients trust, with its intermediate certificates (nginx: ssl_certificate holds the leaf then the intermediates; Apache 2.4.8+: SSLCertificateFile likewise; Postfix: smtpd_tls_chain_files). For an internal CA, distribute its root to the clients, and give it to Vigil with serve --audit-ca.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc5280#section-6',
    'https://www.rfc-editor.org/rfc/rfc8446#section-4.4.2',
  ],
  ports: { where: speaksTls },
  run: (t) =>
    certDetail(
      t,
      (c, host, _now, info) => {
        if (c.selfSigned || !info.chain?.length) return null;
        const v = verifyChain(info.chain, host.caCertificates ?? []);
        if (!v || v.trusted || v.selfSigned) return null;
        const sent =
          info.chain.length === 1
            ? 'the server sent its certificate alone'
            : `the server sent ${info.chain.length} certificates`;
        return `The chain does not lead to a trusted CA: ${v.reason} (the path stops at the issuer "${v.issuer}", which is not among the trusted CAs; ${sent})`;
      },
      { trust: true },
    ),
});
