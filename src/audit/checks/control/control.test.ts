/**
 * Control channels open without authentication, on real Debian daemons,
 * each weak configuration beside its hardened twin (the configurations are
 * the bench's: test/helpers/control-daemons.ts): Tor's ControlPort without
 * authentication vs HashedControlPassword and CookieAuthentication;
 * OpenVPN's management interface without vs with a password file;
 * HAProxy's runtime API on TCP at level admin and at level user vs on a
 * Unix socket. Unbound and chrony are in control-dns-time.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { haproxyRuntimeConf, openvpnArgs, torArgs, torHash, torrc } from '../../../../test/helpers/control-daemons.ts';
import { detectServices } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.214.${n}`;
const TOR = which('tor');
const OPENVPN = which('openvpn');
const HAPROXY = which('haproxy');

/** Detection on the one port, then the check on what detection named: the name and the findings. */
async function audit(id: string, address: string, port: number) {
  const net = netFor(address);
  const services = await detectServices(net, [port], { bannerMs: 1000, portBudgetMs: 6000 });
  return { name: services[0]!.name, findings: await checkById(id).runOn(hostOf(address, services), net) };
}

test('Tor ControlPort: without authentication found; HashedControlPassword and CookieAuthentication not', {
  skip: TOR ? false : 'tor is not installed',
}, async () => {
  const hash = torHash(TOR!);
  const tor = (address: string, auth: Parameters<typeof torrc>[3]) => {
    const dir = tempDir('tor');
    return daemon(address, TOR!, (port) => (torrc(dir, address, port, auth), torArgs(dir)));
  };
  const [open, password, cookie] = await Promise.all([tor(A(1), 'none'), tor(A(2), { hash }), tor(A(3), 'cookie')]);
  const weak = await audit('vigil.tor.control-open', A(1), open);
  assert.equal(weak.name, 'tor-control');
  assert.match(
    weak.findings[0]!.detail,
    /^"PROTOCOLINFO 1" answered "250-AUTH METHODS=NULL"; "AUTHENTICATE """ \(the empty secret\) answered "250 OK"; "GETINFO version" answered "250-version=\d+\.\d+[^"]*"\.$/,
  );
  for (const [address, port] of [
    [A(2), password],
    [A(3), cookie],
  ] as const) {
    const twin = await audit('vigil.tor.control-open', address, port);
    assert.equal(twin.name, 'tor-control');
    assert.deepEqual(twin.findings, []);
  }
});

test('OpenVPN management interface: without a password file found; with one ("ENTER PASSWORD:") not', {
  skip: OPENVPN ? false : 'openvpn is not installed',
}, async () => {
  const openvpn = async (address: string, password: boolean) => {
    const dir = tempDir('openvpn');
    const udp = await freePort(address);
    return daemon(address, OPENVPN!, (port) => openvpnArgs(dir, address, port, udp, password));
  };
  const [open, locked] = await Promise.all([openvpn(A(11), false), openvpn(A(12), true)]);
  const weak = await audit('vigil.openvpn.management-open', A(11), open);
  assert.equal(weak.name, 'openvpn-management');
  assert.match(
    weak.findings[0]!.detail,
    /^The port greeted ">INFO:OpenVPN Management Interface Version \d+ -- type 'help' for more info" without asking for a password; "version" answered "OpenVPN Version: OpenVPN 2\.[^"]+"; "state" answered "\d+,[A-Z_]+,[^"]*"\.$/,
  );
  const twin = await audit('vigil.openvpn.management-open', A(12), locked);
  assert.equal(twin.name, 'openvpn-management');
  assert.deepEqual(twin.findings, []);
});

test('HAProxy runtime API on TCP: level admin a HOLE, level user a NOTE; on a Unix socket nothing', {
  skip: HAPROXY ? false : 'haproxy is not installed',
}, async () => {
  const haproxy = (address: string, api: Parameters<typeof haproxyRuntimeConf>[3]) => {
    const dir = tempDir('haproxy-api');
    return daemon(address, HAPROXY!, (port) => ['-db', '-f', haproxyRuntimeConf(dir, address, port, api)]);
  };
  const [admin, user, unix] = await Promise.all([
    haproxy(A(21), 'admin'),
    haproxy(A(22), 'user'),
    haproxy(A(23), 'unix'),
  ]);
  const a = await audit('vigil.haproxy.runtime-api-open', A(21), admin);
  assert.equal(a.name, 'haproxy-stats');
  assert.equal(a.findings[0]!.type, undefined, 'the check type: HOLE');
  assert.match(
    a.findings[0]!.detail,
    /^"show info" was answered without authentication: "Name: HAProxy \| Version: 2\.\d+[^|]* \|.*Pid: \d+.*"; "show cli level" answered "admin"\.$/,
  );
  const u = await audit('vigil.haproxy.runtime-api-open', A(22), user);
  assert.equal(u.findings[0]!.type, 'NOTE');
  assert.match(u.findings[0]!.detail, /"show cli level" answered "user"\. The socket is not at the admin level/);
  const twin = await audit('vigil.haproxy.runtime-api-open', A(23), unix);
  assert.equal(twin.name, 'unknown');
  assert.deepEqual(twin.findings, []);
  // Run on the twin's port as if detection had named it: the listener there closes every connection, silence.
  const named = hostOf(A(23), [service(unix, 'haproxy-stats')]);
  assert.deepEqual(await checkById('vigil.haproxy.runtime-api-open').runOn(named, netFor(A(23))), []);
});

test('HAProxy master CLI on TCP (haproxy -W -S): "show proc" answered, found', {
  skip: HAPROXY ? false : 'haproxy is not installed',
}, async () => {
  const address = A(24);
  const dir = tempDir('haproxy-master');
  const frontend = await freePort(address);
  const conf = haproxyRuntimeConf(dir, address, frontend, 'unix');
  const cli = await daemon(address, HAPROXY!, (port) => ['-W', '-db', '-S', `ipv4@${address}:${port}`, '-f', conf]);
  const m = await audit('vigil.haproxy.runtime-api-open', address, cli);
  assert.equal(m.name, 'haproxy-stats');
  assert.match(
    m.findings[0]!.detail,
    /^"show proc" \(master CLI\) was answered without authentication: "#<PID> <type> .*\| \d+ master .*"; "show cli level" answered "admin"\.$/,
  );
});
