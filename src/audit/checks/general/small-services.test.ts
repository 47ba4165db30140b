/**
 * inetd's small services on a real Debian inetd (openbsd-inetd, its
 * internal echo, daytime, chargen and time, on their own ports of
 * 127.0.82.1: the UDP rule asks the well-known ports) against an inetd that
 * serves only an unrelated service (finger) on 127.0.82.2. OpenBSD inetd
 * answers no UDP small service from a 127/8 source (an anti-loop rule), so
 * its UDP side runs in a namespace of its own and is relayed
 * (test/helpers/legacy-daemons.ts nsCommand).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { inetdCommand, NS_ADDR } from '../../../../test/helpers/legacy-daemons.ts';
import { nsDaemon } from '../../../../test/helpers/ns-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';
import { detectOne } from '../../engine/detect.ts';

const WEAK = '127.0.82.1';
const TWIN = '127.0.82.2';
const SMALL = ['echo', 'daytime', 'chargen', 'time'];
const READY = process.getuid?.() === 0 && which('inetd') && which('unshare') && which('in.fingerd') && which('socat');
const UDP_PORTS = { echo: 7, daytime: 13, chargen: 19, time: 37 };

const inetd = (addr: string, lines: string[], port: number) =>
  daemon(addr, 'unshare', () => inetdCommand(tempDir('inetd'), { lines }).args, { port });

test('small services over TCP and UDP are found on inetd; an inetd with finger only is silent', {
  skip: READY ? false : 'needs root, inetd (openbsd-inetd), unshare and in.fingerd',
}, async () => {
  await Promise.all([
    inetd(
      WEAK,
      SMALL.map((s) => `${WEAK}:${s} stream tcp nowait root internal`),
      7,
    ),
    nsDaemon(
      'small-udp',
      {
        setup: [
          `printf '%s\\n' ${SMALL.map((s) => `'${NS_ADDR}:${s} dgram udp wait root internal'`).join(' ')} > /run/inetd.conf`,
          '/usr/sbin/inetd -i /run/inetd.conf &',
        ],
        relays: Object.fromEntries(Object.entries(UDP_PORTS).map(([s, p]) => [`udp-${s}`, `UDP:${NS_ADDR}:${p}`])),
        ready: `ss -Hlnu | grep -q '${NS_ADDR}:37 '`,
      },
      Object.entries(UDP_PORTS).map(([s, port]) => ({ proto: 'udp' as const, addr: WEAK, port, socket: `udp-${s}` })),
    ),
    inetd(TWIN, [`${TWIN}:finger stream tcp nowait nobody /usr/sbin/in.fingerd in.fingerd -u`], 79),
  ]);
  const tcp = [service(7, 'unknown'), service(13, 'unknown'), service(19, 'unknown'), service(37, 'unknown')];
  const small = await checkById('vigil.inetd.small-services').runOn(hostOf(WEAK, tcp), netFor(WEAK));
  const at = (p: number) => small.find((f) => f.port === p)?.detail ?? '';
  assert.match(at(7), /^TCP 7 \(echo\): sent "vigil-[0-9a-f]{12}", the same came back\.$/);
  assert.match(at(13), /^TCP 13 \(daytime\) sent unasked \d+ bytes: ".*\d:\d\d/);
  assert.match(at(19), /^TCP 19 \(chargen\) streamed unasked: "[\x20-\x7e]*0123456789:;<=>\?@ABC/);
  assert.match(at(37), /^TCP 37 \(time\) sent unasked 4 bytes: \d+ s since 1900 \(\d{4}-/);

  const udp = await checkById('vigil.dos.udp-small-services').runOn(hostOf(WEAK, []), netFor(WEAK));
  const u = (p: number) => udp.find((f) => f.port === p);
  assert.match(u(19)!.detail, /^UDP 19 \(chargen\): a 1-byte datagram was answered with (\d+) bytes \(factor \1\.0\)/);
  assert.equal(u(19)!.risk, undefined);
  assert.match(u(7)!.detail, /^UDP 7 \(echo\): a 19-byte datagram came back byte for byte/);
  assert.equal(u(7)!.risk, 'low');
  assert.match(u(13)!.detail, /^UDP 13 \(daytime\): a 1-byte datagram was answered with \d+ bytes/);
  assert.match(
    u(37)!.detail,
    /^UDP 37 \(time\): a 1-byte datagram was answered with 4 bytes \(factor 4\.0\): \d+ s since 1900/,
  );
  assert.equal(u(17), undefined);

  // Detection: an echoed probe names echo (SMB's negotiate echoed back once read as SMBv1).
  assert.equal((await detectOne(netFor(WEAK), 7, { nmapProbes: false })).name, 'echo');

  const twinTcp = [service(79, 'finger'), ...tcp];
  assert.deepEqual(await checkById('vigil.inetd.small-services').runOn(hostOf(TWIN, twinTcp), netFor(TWIN)), []);
  assert.deepEqual(await checkById('vigil.dos.udp-small-services').runOn(hostOf(TWIN, []), netFor(TWIN)), []);
});
