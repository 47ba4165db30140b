/**
 * Weak SSH host key algorithms on a real Debian sshd: a DSA host key
 * enabled again (HostKeyAlgorithms +ssh-dss) and an RSA key restricted to
 * ssh-rsa (SHA-1) are found; Debian's defaults and an RSA key that also
 * offers rsa-sha2-* (OpenSSH up to 8.7's own default list) are not.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';

const check = checkById('vigil.ssh.weak-hostkey');
const ADDR = '127.0.71.2';

/** sshd with host keys of these types and this sshd_config tail. */
function sshd(keys: ('dsa' | 'rsa' | 'ed25519')[], conf: string): Promise<number> {
  const dir = tempDir('sshd-hostkey');
  mkdirSync('/run/sshd', { recursive: true });
  for (const k of keys) execFileSync('ssh-keygen', ['-q', '-t', k, '-N', '', '-f', join(dir, k)]);
  return daemon(ADDR, '/usr/sbin/sshd', (port) => {
    writeFileSync(
      join(dir, `sshd-${port}.conf`),
      [
        `Port ${port}`,
        `ListenAddress ${ADDR}`,
        ...keys.map((k) => `HostKey ${join(dir, k)}`),
        `PidFile ${dir}/sshd-${port}.pid`,
        'UsePAM no',
        'StrictModes no',
        conf,
      ].join('\n'),
    );
    return ['-D', '-e', '-f', join(dir, `sshd-${port}.conf`)];
  });
}

const run = async (port: number) => check.runOn(hostOf(ADDR, [service(port, 'ssh')]), netFor(ADDR));

test('sshd: DSA host key and RSA with SHA-1 only are found; defaults and RSA with rsa-sha2-* are not', {
  skip: (!which('/usr/sbin/sshd') || !which('ssh-keygen')) && 'openssh-server not installed',
}, async () => {
  const [dsa, sha1, defaults, both] = await Promise.all([
    sshd(['ed25519', 'dsa'], 'HostKeyAlgorithms +ssh-dss'),
    sshd(['rsa'], 'HostKeyAlgorithms ssh-rsa'),
    sshd(['ed25519', 'rsa'], ''),
    sshd(['ed25519', 'rsa'], 'HostKeyAlgorithms +ssh-rsa'),
  ]);
  const [d] = await run(dsa);
  assert.match(d!.detail, /host key algorithms ".*ssh-dss.*": a DSA host key \(ssh-dss\)\.$/);
  const [r] = await run(sha1);
  assert.equal(
    r!.detail,
    'The server\'s KEXINIT offers host key algorithms "ssh-rsa": an RSA host key signed with SHA-1 only (ssh-rsa, no rsa-sha2-256/512).',
  );
  assert.deepEqual(await run(defaults), []);
  assert.deepEqual(await run(both), []);
});
