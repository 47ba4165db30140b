/**
 * The SSH and VNC checks on remote-access servers of other makes than
 * OpenSSH and the RFB imitations (issue 27: cover the family, not the
 * instance): Dropbear, with password logins (root too) or a DSA host key,
 * beside its twin with keys only (-s -w); x11vnc on an Xvfb display with
 * -nopw, beside its twin behind a password (-rfbauth). A twin gives no HOLE
 * or NOTE: Dropbear offers diffie-hellman-group14-sha1 and x11vnc "VNC
 * Authentication" whatever their configuration, and neither is an alarm.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, onCleanup, stop, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { settle } from '../../engine/qod.ts';
import { CHECKS } from '../catalogue.ts';

const DROPBEAR = which('dropbear');
const X11VNC = which('x11vnc') && which('Xvfb');

/** Every check of the catalogue whose port rule takes the port (as `name`): its findings as "id TYPE: detail". */
async function audit(address: string, port: number, name: string): Promise<string[]> {
  const net = netFor(address);
  const out: string[] = [];
  for (const c of CHECKS.filter((c) => c.categories[0] === 'safe' && !c.ports.host))
    for (const f of await c.runOn(hostOf(address, [service(port, name)]), net))
      out.push(`${c.id} ${settle(c, f).type}: ${f.detail}`);
  return out;
}
const alarms = (found: string[]) => found.filter((f) => / (HOLE|NOTE): /.test(f));

function dropbear(address: string, keys: string[], extra: string[]): Promise<number> {
  return daemon(address, DROPBEAR!, (port) => ['-F', '-E', '-p', `${address}:${port}`, ...keys, ...extra]);
}

test('Dropbear: passwords (root too) are reported, a DSA host key is a HOLE; keys only with an Ed25519 key: no alarm', {
  skip: DROPBEAR ? false : 'dropbear is not installed (apt-get install dropbear-bin)',
}, async () => {
  const dir = tempDir('dropbear');
  const key = (t: string) => (
    execFileSync('dropbearkey', ['-t', t, '-f', join(dir, t)], { stdio: 'ignore' }), join(dir, t)
  );
  const [ed, dss] = [key('ed25519'), key('dss')];
  const [open, weakKey, twin] = await Promise.all([
    dropbear('127.0.71.41', ['-r', ed], []),
    dropbear('127.0.71.42', ['-r', ed, '-r', dss], ['-s', '-w']),
    dropbear('127.0.71.43', ['-r', ed], ['-s', '-w']),
  ]);
  const a = await audit('127.0.71.41', open, 'ssh');
  assert.ok(
    a.some((f) => /^vigil\.ssh\.password-auth LOG: methods offered after "none": .*password/.test(f)),
    `${a}`,
  );
  assert.deepEqual(alarms(a), []);
  const b = await audit('127.0.71.42', weakKey, 'ssh');
  assert.ok(
    b.some((f) => /^vigil\.ssh\.weak-hostkey HOLE: .*ssh-dss.*a DSA host key/.test(f)),
    `${b}`,
  );
  assert.ok(!b.some((f) => /password-auth/.test(f)), `${b}`);
  const c = await audit('127.0.71.43', twin, 'ssh');
  assert.deepEqual(alarms(c), []);
  assert.ok(!c.some((f) => /password-auth/.test(f)), `${c}`);
});

/** Xvfb on a display it picks itself (-displayfd), without TCP; its number. */
async function xvfb(): Promise<number> {
  const x = spawn('Xvfb', ['-displayfd', '1', '-nolisten', 'tcp', '-screen', '0', '320x200x16'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  onCleanup(() => stop(x));
  const display = await new Promise<string>((ok, fail) => {
    let out = '';
    x.stdout!.on('data', (d) => ((out += d), /\n/.test(out) && ok(out.trim())));
    x.once('exit', (code) => fail(new Error(`Xvfb exited (${code})`)));
  });
  return Number(display);
}

test('x11vnc: -nopw offers None (a HOLE); the twin behind -rfbauth gives no alarm, only information', {
  skip: X11VNC ? false : 'x11vnc or Xvfb is not installed (apt-get install x11vnc xvfb)',
}, async () => {
  const display = await xvfb();
  const dir = tempDir('x11vnc');
  const pass = join(dir, 'passwd');
  execFileSync('x11vnc', ['-storepasswd', 'a-vnc-secret', pass], { stdio: 'ignore' });
  const vnc = (address: string, auth: string[]) =>
    daemon(address, 'x11vnc', (port) => [
      ...['-display', `:${display}`, '-listen', address, '-rfbport', String(port), '-no6', '-noipv6', '-nolookup'],
      ...['-forever', '-shared', '-quiet', ...auth],
    ]);
  const [open, twin] = await Promise.all([vnc('127.0.71.44', ['-nopw']), vnc('127.0.71.45', ['-rfbauth', pass])]);
  const a = await audit('127.0.71.44', open, 'vnc');
  assert.ok(
    a.some((f) => /^vigil\.vnc\.noauth HOLE: security types offered: .*1 = None/.test(f)),
    `${a}`,
  );
  const b = await audit('127.0.71.45', twin, 'vnc');
  assert.deepEqual(alarms(b), []);
  assert.ok(
    b.some((f) => /^vigil\.vnc\.unencrypted LOG: .*without encryption: 2/.test(f)),
    `${b}`,
  );
});
