import { defineCheck } from '../kit.ts';
import { oper, withIrc } from '../../proto/irc.ts';
import { shown } from '../../proto/talk.ts';

/**
 * IRC operator blocks left with the example of the server's own sample
 * configuration: per product recognised by its 004 version (RFC 2812
 * §5.1, RPL_MYINFO), the one pair its sample file prints, tried once with
 * OPER (§3.1.4). Proof: 381 RPL_YOUREOPER; 464 ERR_PASSWDMISMATCH or 491
 * ERR_NOOPERHOST is nothing. The connection quits at once. One documented
 * pair on an identified product, as vendor-default-login does for web
 * pages: `safe`.
 */
const SAMPLES: readonly { product: RegExp; name: string; pair: [string, string]; source: string }[] = [
  // ngIRCd's sample-ngircd.conf (doc/sample-ngircd.conf.tmpl): [Operator] Name = TheOper, Password = ThePwd.
  { product: /^ngircd/i, name: 'ngIRCd', pair: ['TheOper', 'ThePwd'], source: "ngIRCd's sample-ngircd.conf" },
  // UnrealIRCd's example.conf: oper bobsmith { password "test"; … }.
  { product: /^UnrealIRCd/i, name: 'UnrealIRCd', pair: ['bobsmith', 'test'], source: "UnrealIRCd's example.conf" },
];

export default defineCheck({
  id: 'vigil.irc.oper-default',
  shortid: 'IRC-OPER-DEFAULT',
  title: "IRC server accepts its sample configuration's operator password",
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    "The IRC server has an operator account with the name and password its sample configuration prints: anyone can become an IRC operator, kill and ban users, read their hosts and, with the server's rights, connect or disconnect servers of the network.",
  solution:
    'Change or remove the operator block copied from the sample file (ngIRCd: [Operator] in ngircd.conf; UnrealIRCd: the oper block), set a strong password (hashed where the server supports it) and limit operators by host mask.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc2812#section-3.1.4',
    'https://ngircd.barton.de/doc/sample-ngircd.conf',
  ],
  ports: { services: ['irc'], ports: [6667] },
  run: ({ net, port }) =>
    withIrc(net, port, async (c, w) => {
      const row = SAMPLES.find((s) => w.version && s.product.test(w.version));
      if (!row) return null;
      const [user, password] = row.pair;
      const r = await oper(c, user, password);
      if (!r.ok) return null;
      return `Registered as ${w.nick} (004: ${shown(`${w.server} ${w.version}`, 60)}); OPER ${user} ${password} (${row.source}) was answered "${shown(r.reply, 100)}": operator rights with the sample pair.`;
    }),
});
