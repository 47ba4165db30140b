import { torControl, torLine } from '../../proto/tor-control.ts';
import { shown } from '../../proto/talk.ts';
import type { Service } from '../../engine/types.ts';
import { defineCheck } from '../kit.ts';

/** Tor answers an HTTP request on its ControlPort with its own 501 page (control.c): the HTTP probe's record of it. */
const torRejectsHttp = (s: Service) => !!s.http && /Tor's ControlPort is not an HTTP proxy/.test(s.http.body);

/**
 * A Tor ControlPort without authentication: PROTOCOLINFO lists
 * `AUTH METHODS=NULL`, the empty secret is accepted (250 OK), and
 * `GETINFO version` is answered. The proof is the 250 to `AUTHENTICATE ""`
 * and the GETINFO answer; a port that lists NULL but refuses the empty
 * secret is not reported, nor one with a password or cookie (515). Nothing
 * that changes Tor's state is sent (no SETCONF, SIGNAL).
 */
export default defineCheck({
  id: 'vigil.tor.control-open',
  shortid: 'TOR-CONTROL-OPEN',
  title: 'Tor ControlPort without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    "Tor's control port accepts a controller without a password or cookie: anyone who reaches it can reconfigure Tor (SETCONF, for instance to open a SOCKS port to everyone or change its exit policy), read its circuits, streams and onion service keys, and stop it (SIGNAL SHUTDOWN).",
  solution:
    'Set HashedControlPassword (tor --hash-password) or CookieAuthentication 1 in torrc, and bind ControlPort to 127.0.0.1 or a Unix socket (ControlSocket) rather than a network address.',
  references: ['https://spec.torproject.org/control-spec/'],
  ports: { services: ['tor-control'], ports: [9051], where: torRejectsHttp },
  run: async ({ net, port }) => {
    const t = await torControl(net, port);
    if (!t?.auth?.startsWith('250') || !t.getinfo || !/^250[- ]version=/m.test(t.getinfo)) return null;
    const methods = torLine(t.protocolInfo, /^250-AUTH /) ?? 'no AUTH line';
    const version = torLine(t.getinfo, /^250[- ]version=/)!;
    return `"PROTOCOLINFO 1" answered "${shown(methods, 80)}"; "AUTHENTICATE """ (the empty secret) answered "${shown(t.auth, 40)}"; "GETINFO version" answered "${shown(version, 80)}".`;
  },
});
