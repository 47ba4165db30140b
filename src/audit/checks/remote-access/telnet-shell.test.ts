/**
 * A Telnet shell without login (vigil.telnet.no-login) against its twin, a
 * Telnet console that asks for a login. BusyBox telnetd, the embedded
 * devices' daemon (-F foreground, -b address:port, -l the program it runs:
 * /bin/sh for the weak one, /bin/login for the twin), when a BusyBox with
 * the telnetd applet is there (test/helpers/busybox.ts says where CI finds
 * one). Always: a real dash on a real pty and the real /bin/login on
 * another (socat EXEC:…,pty), which exercise the prompt logic when no
 * telnetd is installed; they send no option negotiation, as some embedded
 * consoles do not. One daemon each for the whole file.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { busyboxWith } from '../../../../test/helpers/busybox.ts';
import { daemon, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const ADDR = (n: number) => `127.14.124.${n}`;
const BUSYBOX = busyboxWith('telnetd');
const SOCAT = which('socat');
const ROOT = process.getuid?.() === 0;
const noLogin = checkById('vigil.telnet.no-login');
const run = (n: number, port: number) => noLogin.runOn(hostOf(ADDR(n), [service(port, 'telnet')]), netFor(ADDR(n)));

const ports: Record<string, number> = {};
before(async () => {
  const starts: Promise<void>[] = [];
  const start = (name: string, p: Promise<number>) => starts.push(p.then((port) => void (ports[name] = port)));
  if (SOCAT && ROOT) {
    const pty = (n: number, exec: string) =>
      daemon(ADDR(n), 'socat', (port) => [
        `TCP-LISTEN:${port},bind=${ADDR(n)},reuseaddr,fork`,
        `${exec},pty,stderr,setsid,ctty`,
      ]);
    start('ptyShell', pty(30, "EXEC:'/bin/sh -i',su=nobody"));
    start('ptyLogin', pty(130, 'EXEC:/bin/login'));
  }
  if (BUSYBOX && ROOT) {
    start(
      'bbShell',
      daemon(ADDR(31), BUSYBOX, (port) => ['telnetd', '-F', '-b', `${ADDR(31)}:${port}`, '-l', '/bin/sh']),
    );
    start(
      'bbLogin',
      daemon(ADDR(131), BUSYBOX, (port) => ['telnetd', '-F', '-b', `${ADDR(131)}:${port}`, '-l', '/bin/login']),
    );
  }
  await Promise.all(starts);
});

test('a shell on a pty is a shell without login; /bin/login on a pty is not', {
  skip: SOCAT && ROOT ? false : 'needs root and socat',
}, async () => {
  const [f] = await run(30, ports.ptyShell!);
  assert.match(
    f!.detail,
    /^With no option negotiation the server printed "\$" with no login or password prompt, and answered one empty line with the same shell prompt "\$": a shell without login\.$/,
  );
  assert.deepEqual(await run(130, ports.ptyLogin!), []);
});

test('BusyBox telnetd -l /bin/sh is a shell without login; -l /bin/login is not (telnet open only)', {
  skip:
    BUSYBOX && ROOT
      ? false
      : 'needs root and a BusyBox with the telnetd applet (Debian busybox-static; busybox has none)',
}, async () => {
  const [f] = await run(31, ports.bbShell!);
  assert.match(
    f!.detail,
    /^After the option negotiation \(the server asked [^)]*WILL ECHO[^)]*\) the server printed .* same shell prompt "[^"]*[#$]": a shell without login\.$/,
  );
  assert.deepEqual(await run(131, ports.bbLogin!), []);
  const s = await detectOne(netFor(ADDR(131)), ports.bbLogin!, { nmapProbes: false });
  assert.equal(s.name, 'telnet');
  assert.equal((await checkById('vigil.telnet.open').runOn(hostOf(ADDR(131), [s]), netFor(ADDR(131)))).length, 1);
});
