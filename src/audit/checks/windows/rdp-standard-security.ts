import { negotiate, PROTOCOL } from '../../proto/rdp.ts';
import { defineCheck } from '../kit.ts';

/** What a second offer (TLS and CredSSP) says the server also does, for the detail. */
function alsoOffered(n: Awaited<ReturnType<typeof negotiate>>): string {
  if (!n) return '';
  if (n.kind === 'selected' && n.selected === PROTOCOL.HYBRID)
    return ' Offered TLS and CredSSP, it chose CredSSP (NLA), but does not require it.';
  if (n.kind === 'selected' && n.selected === PROTOCOL.SSL)
    return ' Offered TLS and CredSSP, it chose TLS: Network Level Authentication is not available.';
  return ' Offered TLS and CredSSP, it did not take either.';
}

/**
 * RDP servers that accept Standard RDP Security ([MS-RDPBCGR] 5.3): the
 * client cannot authenticate the server (the RSA key is the server's own,
 * signed by no one a client checks; CVE-2005-1794), so anyone on the path
 * can read and change the session, and the logon screen is shown before
 * any authentication. Proof: a Connection Request offering PROTOCOL_RDP
 * alone is answered with PROTOCOL_RDP selected (or by a server too old to
 * negotiate). A server that requires TLS or NLA refuses the same offer
 * (RDP_NEG_FAILURE) and is not reported.
 */
export default defineCheck({
  id: 'vigil.rdp.standard-security',
  shortid: 'RDP-STD-SECURITY',
  title: 'Remote Desktop accepts Standard RDP Security (no TLS, no NLA)',
  family: 'Windows',
  categories: ['safe', 'default', 'desktop'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'The Remote Desktop server accepts a session protected only by Standard RDP Security: the client has no way to authenticate the server, so a man in the middle can read and change the session, keystrokes and passwords included (CVE-2005-1794), and the logon screen is offered before any authentication (no Network Level Authentication).',
  solution:
    'Require TLS or, better, Network Level Authentication (CredSSP): on Windows, "Require use of specific security layer: SSL" and "Require user authentication by using Network Level Authentication"; on xrdp, security_layer=tls with a certificate clients trust.',
  references: [
    'https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-rdpbcgr/2e8a7cbb-de35-4f4b-b39b-7c9b43c9bd5c',
    'https://nvd.nist.gov/vuln/detail/CVE-2005-1794',
  ],
  ports: { services: ['ms-wbt-server', 'rdp'], ports: [3389] },
  run: async ({ net, port }) => {
    const rdp = await negotiate(net, port, PROTOCOL.RDP);
    if (!rdp || rdp.kind === 'failure') return null;
    const sent = 'An X.224 Connection Request offering Standard RDP Security alone (requestedProtocols 0x0)';
    if (rdp.kind === 'legacy')
      return `${sent} was confirmed without negotiation data: the server only speaks Standard RDP Security.`;
    if (rdp.selected !== PROTOCOL.RDP) return null; // it chose something not offered: not our proof
    const more = await negotiate(net, port, PROTOCOL.SSL | PROTOCOL.HYBRID);
    return `${sent} was confirmed with RDP_NEG_RSP selectedProtocol 0x0 (PROTOCOL_RDP).${alsoOffered(more)}`;
  },
});
