/**
 * Daemons' own control channels on TCP: OpenVPN's management interface
 * (speaks first), and the Tor ControlPort, HAProxy's runtime API and
 * Unbound's remote control (silent until asked). One probe line names the
 * three silent ones, because each answers a line it does not expect in its
 * own words: `UBCT1 status` is Unbound's status request (its version and
 * "is running"), Tor answers any command but the first four with "514
 * Authentication required." (control.c), and HAProxy's CLI with "Unknown
 * command: 'UBCT1'" and its command list. Names as nmap's database has
 * them (tor-control, openvpn-management, haproxy-stats; ub-dns-control is
 * nmap-services' name for 8953).
 */
import { OPENVPN_GREETING, OPENVPN_PASSWORD } from '../../proto/openvpn-management.ts';
import { HAPROXY_UNKNOWN } from '../../proto/haproxy-cli.ts';
import type { Family } from './family.ts';

export const openvpnManagement: Family = {
  id: 'openvpn-management',
  async banner(greeting, s) {
    const text = greeting.toString('latin1');
    // "ENTER PASSWORD:" is the whole greeting of a management port with a password file (no newline follows).
    const asks = OPENVPN_PASSWORD.test(text) && /^ENTER PASSWORD:\s*$/.test(text);
    if (!asks && !OPENVPN_GREETING.test(text)) return false;
    Object.assign(s, { name: 'openvpn-management', product: 'OpenVPN Management Interface' });
    const v = /Version ([\d.]+)/.exec(text);
    if (v) s.extra.managementVersion = v[1]!;
    s.extra.auth = asks ? 'password' : 'none';
    return true;
  },
};

/** The Tor ControlPort's refusal of anything but PROTOCOLINFO/AUTHENTICATE before authentication. */
const TOR_REFUSAL = /^514 Authentication required\.\r?\n/;

/** Tor's ControlPort, Unbound's remote control, and the port HAProxy's documentation gives its TCP stats socket. */
const CONTROL_PORTS = [9051, 8953, 9999];

export const controlLine: Family = {
  id: 'control-line',
  ports: CONTROL_PORTS,
  async probe(conv, s) {
    // All three answer at once and close (Tor after its refusal): a silent port elsewhere costs 500 ms only,
    // since this probe runs third on every port no earlier probe named.
    const ms = CONTROL_PORTS.includes(conv.socket.remotePort ?? 0) ? 2000 : 500;
    const r = (await conv.ask('UBCT1 status\n', ms, (b) => TOR_REFUSAL.test(b.toString('latin1')))).toString('latin1');
    if (TOR_REFUSAL.test(r)) {
      Object.assign(s, { name: 'tor-control', product: 'Tor control port' });
      return true;
    }
    const version = /^version: (\S+)\r?\n/.exec(r);
    if (version && /\(pid \d+\) is running/.test(r)) {
      Object.assign(s, { name: 'ub-dns-control', product: 'Unbound remote control', version: version[1]! });
      return true;
    }
    if (HAPROXY_UNKNOWN.test(r)) {
      Object.assign(s, { name: 'haproxy-stats', product: 'HAProxy runtime API' });
      return true;
    }
    return false;
  },
};
