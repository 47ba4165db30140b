import { accessRequest, RADIUS_CODES, radiusReply, replySignedWith } from '../../proto/radius.ts';
import { udpAsk } from '../../proto/talk.ts';
import { RADIUS_SECRETS } from '../data/auth-services.ts';
import { defineCheck } from '../kit.ts';

/**
 * A RADIUS server (FreeRADIUS, its clients.conf ships `secret = testing123`;
 * any RFC 2865 server alike) that shares a well-known secret with the
 * scanner's address. One Access-Request for a made-up user; the reply's
 * Response Authenticator is MD5 over the reply and the shared secret (RFC
 * 2865 §3), so each candidate secret is checked offline against that one
 * reply: only the holder of the secret can have computed a match. A reply
 * that matches none, or silence (FreeRADIUS drops requests from addresses it
 * has no client entry for), is not reported.
 */
export default defineCheck({
  id: 'vigil.radius.default-secret',
  shortid: 'RADIUS-DEFAULT-SECRET',
  title: 'RADIUS server uses a well-known shared secret',
  family: 'General',
  // One Access-Request, as a NAS sends, for a user that does not exist; the secrets are compared offline, so the
  // server sees one rejected login whatever the list's length and no guess ever reaches it: safe.
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The RADIUS server accepts requests signed with a well-known shared secret: anyone who can send from the client's address can ask it to check passwords, and anyone who sees its traffic can forge Access-Accept replies to the NAS and recover the User-Password attributes, which are hidden only with that secret.",
  solution:
    'Give every client entry a long random secret (FreeRADIUS: secret in clients.conf; remove the localhost testing123 client), require Message-Authenticator, and let only the NAS addresses reach the RADIUS ports.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc2865#section-3',
    'https://www.rfc-editor.org/rfc/rfc2865#section-5.2',
  ],
  ports: { udp: [1812, 1645] },
  run: async ({ net, port }) => {
    const req = accessRequest(RADIUS_SECRETS[0]!);
    // FreeRADIUS holds an Access-Reject for reject_delay (1 s by default) before it sends it.
    const reply = await udpAsk(net, port, req.packet, { timeoutMs: 3000 });
    const r = reply && radiusReply(reply, req);
    if (!reply || !r) return null;
    const secret = RADIUS_SECRETS.find((s) => replySignedWith(reply, req, s));
    if (!secret) return null;
    return `Access-Request (id ${req.id}, User-Name "${req.user}", no Message-Authenticator) was answered ${RADIUS_CODES[r.code]} (code ${r.code}, ${r.length} bytes) whose Response Authenticator equals MD5(Code+ID+Length+Request Authenticator+Attributes+"${secret}"): the shared secret is "${secret}".`;
  },
});
