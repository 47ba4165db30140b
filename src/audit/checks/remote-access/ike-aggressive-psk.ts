import { defineCheck } from '../kit.ts';
import { askAggressive, EXCHANGE, PAYLOAD, PSK_METHODS } from '../../proto/ike.ts';

/**
 * An IKEv1 responder that answers Aggressive Mode with pre-shared-key
 * authentication sends, in its first reply and before the initiator has
 * proved anything, HASH_R: a PRF keyed with the PSK over values the reply
 * itself carries (RFC 2409 §5.4). Whoever holds that reply can test PSK
 * guesses offline (ike-scan's psk-crack, Greenbone "IKE Aggressive Mode
 * with PSK"). The probe is the first message only, as any initiator sends
 * it: one proposal set per MODP group (14, then 2: current and legacy
 * defaults; 5 once IKE has answered), PSK and XAUTH-PSK transforms, an
 * ID_USER_FQDN identity that names Vigil. The proof is the reply itself: an Aggressive Mode reply whose
 * SA chose a PSK method and which carries a HASH payload. The hash is never
 * cracked, nor reported; the exchange is abandoned (no third message). A
 * notify (NO-PROPOSAL-CHOSEN, INVALID-ID-INFORMATION, AUTHENTICATION-FAILED),
 * an answer with signatures (SIG) or silence is not a finding. The
 * identity sent matters to responders whose PSK is bound to a peer ID (a
 * Cisco group name, a strongSwan rightid): those answer only their own
 * IDs, which a scanner does not guess (no dictionary of group names).
 */
const ID = 'vigil-audit@example.invalid';
/**
 * 14 and 2 always (current and legacy defaults; a responder may drop a proposal it does not like without a
 * word); 5 (MODP-1536, a Cisco ASA default) only after a reply of some kind showed that IKE answers here,
 * so that a host without IKE costs two timeouts, not three.
 */
const GROUPS = [14, 2, 5];

export default defineCheck({
  id: 'vigil.ike.aggressive-mode-psk',
  shortid: 'IKE-AGGRESSIVE-PSK',
  title: 'IKE responder answers Aggressive Mode with a pre-shared key (offline PSK cracking)',
  family: 'Remote Access',
  categories: ['safe', 'auth', 'vuln', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 99,
  description:
    "The IPsec VPN gateway answers an IKEv1 Aggressive Mode proposal with pre-shared-key authentication: its first reply carries a hash keyed with the pre-shared key (HASH_R, RFC 2409 §5.4), which anyone can capture and crack offline (ike-scan's psk-crack), then use to impersonate the gateway or, with XAUTH, to start on the users' passwords.",
  solution:
    'Disable IKEv1 Aggressive Mode (strongSwan: aggressive=no and keep charon.i_dont_care_about_security_and_use_aggressive_mode_psk unset; Cisco: crypto isakmp aggressive-mode disable), or authenticate with certificates, or move to IKEv2; a PSK that must stay should be long and random.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc2409#section-5.4',
    'https://docs.strongswan.org/docs/latest/config/strongswanConf.html',
    'https://github.com/royhills/ike-scan',
  ],
  ports: { udp: [500] },
  async run({ net, port }) {
    let spoke = false;
    for (const [i, group] of GROUPS.entries()) {
      if (i >= 2 && !spoke) break;
      const r = await askAggressive(net, port, group, ID);
      if (!r) continue;
      spoke = true;
      const { reply } = r;
      const chosen = reply.chosen;
      if (
        reply.exchange !== EXCHANGE.AGGRESSIVE ||
        !chosen ||
        !PSK_METHODS.has(chosen.authId) ||
        !reply.payloads.includes(PAYLOAD.HASH) ||
        reply.hashBytes < 16
      )
        continue;
      return (
        `An IKEv1 Aggressive Mode proposal (MODP group ${group}, PSK and XAUTH-PSK transforms, ID ${ID}) to UDP ${port} ` +
        `was answered in Aggressive Mode with responder cookie ${reply.responderCookie}, the chosen transform ` +
        `(${chosen.enc}, ${chosen.hash}, ${chosen.auth}, group ${chosen.group}) and a ${reply.hashBytes}-byte HASH_R: ` +
        'the pre-shared key can be tested offline against it (the hash was not kept, nor cracked).'
      );
    }
    return null;
  },
});
