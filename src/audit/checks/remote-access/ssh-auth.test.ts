/** SSH password authentication, reported as information: Debian's default sshd is, a keys-only twin is not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sshd } from '../../../../test/helpers/daemons-auth.ts';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { Fence } from '../../engine/fence.ts';
import type { HostFacts } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';

const sshPasswordAuth = checkById('vigil.ssh.password-auth');

const WEAK = '127.0.41.18';
const HARD = '127.0.41.19';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const facts = (address: string, port: number): HostFacts => ({
  address,
  openPorts: [port],
  services: [
    {
      port,
      protocol: 'tcp',
      name: 'ssh',
      product: null,
      version: null,
      banner: null,
      tls: null,
      http: null,
      extra: {},
    },
  ],
});

test('sshd: PasswordAuthentication yes is a LOG finding; keys only is silent', {
  skip: (!which('/usr/sbin/sshd') || !which('ssh-keygen')) && 'openssh-server not installed',
}, async () => {
  assert.equal(sshPasswordAuth.type, 'LOG');
  const [weak, hard] = await Promise.all([sshd(WEAK, true), sshd(HARD, false)]);
  const [f] = await sshPasswordAuth.runOn(facts(WEAK, weak), fence.net(WEAK));
  assert.equal(f!.detail, 'methods offered after "none": publickey,password');
  assert.deepEqual(await sshPasswordAuth.runOn(facts(HARD, hard), fence.net(HARD)), []);
});
