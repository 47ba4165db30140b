/**
 * BSD remote services on real Debian daemons (rsh-redone-server's in.rlogind
 * and in.rshd under openbsd-inetd, each in a private mount namespace):
 * "+ +" in root's .rhosts (rsh and rlogin run a command with no password),
 * no trust file (both answer, then refuse), and TCP wrappers refusing
 * everyone (inetd -l, hosts.deny ALL: ALL: accepted and closed without a
 * byte). Root only: namespaces and the privileged client port.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { DENY_ALL, inetdCommand, type InetdPlan } from '../../../../test/helpers/legacy-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';
import { detectOne } from '../../engine/detect.ts';

const ADDR = (n: number) => `127.0.81.${n}`;
const ROOT = process.getuid?.() === 0;
const READY = ROOT && which('in.rshd') && which('in.rlogind') && which('inetd') && which('unshare');

/** rlogind and rshd on two free ports of `addr`, run by inetd as the plan says. */
async function rservices(addr: string, plan: Omit<InetdPlan, 'lines'>): Promise<{ login: number; shell: number }> {
  let shell = 0;
  const login = await daemon(addr, 'unshare', (port) => {
    shell = port + 1;
    const { args } = inetdCommand(tempDir('inetd'), {
      ...plan,
      lines: [
        `${addr}:${port} stream tcp nowait root /usr/sbin/in.rlogind in.rlogind`,
        `${addr}:${shell} stream tcp nowait root /usr/sbin/in.rshd in.rshd`,
      ],
    });
    return args;
  });
  return { login, shell };
}

const run = (id: string, addr: string, port: number, name: string) =>
  checkById(id).runOn(hostOf(addr, [service(port, name)]), netFor(addr));

test('rsh and rlogin trusting "+ +" run a command without a password; without trust they only answer', {
  skip: READY ? false : 'needs root, inetd, unshare, in.rshd and in.rlogind (rsh-redone-server, openbsd-inetd)',
}, async () => {
  const [trusting, plain, wrapped] = await Promise.all([
    rservices(ADDR(1), { files: { '/root/.rhosts': '+ +\n' } }),
    rservices(ADDR(2), {}),
    rservices(ADDR(3), { wrap: true, files: DENY_ALL }),
  ]);
  const [rsh] = await run('vigil.rsh.trust', ADDR(1), trusting.shell, 'shell');
  assert.match(
    rsh!.detail,
    /^rsh as root .* ran "echo vigil-[0-9a-f]+-\$\(\(6\*7\)\); id": "vigil-[0-9a-f]+-42 uid=0\(root\)/,
  );
  const [rlogin] = await run('vigil.rsh.trust', ADDR(1), trusting.login, 'login');
  assert.match(rlogin!.detail, /^rlogin as root .*"vigil-[0-9a-f]+-42.*uid=0\(root\)/);
  // No trust file: both refuse the command (rshd "Authentication failure", rlogind asks for a password).
  assert.deepEqual(await run('vigil.rsh.trust', ADDR(2), plain.shell, 'shell'), []);
  assert.deepEqual(await run('vigil.rsh.trust', ADDR(2), plain.login, 'login'), []);

  for (const [addr, ports] of [
    [ADDR(1), trusting],
    [ADDR(2), plain],
  ] as const) {
    const [shell] = await run('vigil.rservices.open', addr, ports.shell, 'shell');
    assert.match(
      shell!.detail,
      /^rsh answered its opening "0\\0vigil-no-such-user\\0vigil-no-such-user\\0\\0" with a NUL byte \(go on\) and "Authentication failure"/,
    );
    const [login] = await run('vigil.rservices.open', addr, ports.login, 'login');
    assert.match(login!.detail, /^rlogin answered its opening .* with a NUL byte \(go on\) and "Password:/);
  }
  // TCP wrappers: the connection is accepted and closed without a byte, which proves nothing.
  assert.deepEqual(await run('vigil.rservices.open', ADDR(3), wrapped.shell, 'shell'), []);
  assert.deepEqual(await run('vigil.rservices.open', ADDR(3), wrapped.login, 'login'), []);
  assert.deepEqual(await run('vigil.rsh.trust', ADDR(3), wrapped.shell, 'shell'), []);
});

test('detection names rlogin and rsh on their usual ports (login, shell); wrapped, they stay unnamed', {
  skip: READY ? false : 'needs root, inetd, unshare, in.rshd and in.rlogind (rsh-redone-server, openbsd-inetd)',
}, async () => {
  const usual = (addr: string, wrap: boolean) =>
    daemon(
      addr,
      'unshare',
      () =>
        inetdCommand(tempDir('inetd'), {
          lines: [
            `${addr}:login stream tcp nowait root /usr/sbin/in.rlogind in.rlogind`,
            `${addr}:shell stream tcp nowait root /usr/sbin/in.rshd in.rshd`,
          ],
          ...(wrap ? { wrap, files: DENY_ALL } : {}),
        }).args,
      { port: 513 },
    );
  await Promise.all([usual(ADDR(4), false), usual(ADDR(5), true)]);
  const name = async (addr: string, port: number) => (await detectOne(netFor(addr), port, { nmapProbes: false })).name;
  assert.deepEqual([await name(ADDR(4), 513), await name(ADDR(4), 514)], ['login', 'shell']);
  assert.deepEqual([await name(ADDR(5), 513), await name(ADDR(5), 514)], ['unknown', 'unknown']);
});
