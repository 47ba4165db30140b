/**
 * SMB on a real Samba: the weak one (Debian's guest mapping, a guest share, SMB1) is flagged, the hardened
 * twin is not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { samba } from '../../../../test/helpers/daemons-net.ts';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { Fence } from '../../engine/fence.ts';
import type { HostFacts } from '../../engine/types.ts';

import { checkById } from '../catalogue.ts';

const smbGuestShare = checkById('vigil.smb.guest-share');
const smbSigningNotRequired = checkById('vigil.smb.signing-not-required');
const smbV1 = checkById('vigil.smb.v1');

const WEAK = '127.0.41.5';
const HARD = '127.0.41.6';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const facts = (address: string, port: number): HostFacts => ({
  address,
  openPorts: [port],
  services: [
    {
      port,
      protocol: 'tcp',
      name: 'microsoft-ds',
      product: null,
      version: null,
      banner: null,
      tls: null,
      http: null,
      extra: {},
    },
  ],
});

test('Samba: signing not required, a guest share and SMB1 (without Windows CVEs) on the weak one; nothing on the twin', {
  skip: (!which('smbd') && 'samba not installed') || (process.getuid?.() !== 0 && 'needs root for a loopback alias'),
}, async () => {
  const [weak, hard] = await Promise.all([samba(WEAK, true), samba(HARD, false)]);
  const [signing] = await smbSigningNotRequired.runOn(facts(WEAK, weak), fence.net(WEAK));
  assert.match(signing!.detail, /signing enabled, not required/);
  const [guest] = await smbGuestShare.runOn(facts(WEAK, weak), fence.net(WEAK));
  assert.match(guest!.detail, /connected to: finance/); // listed through srvsvc: not a usual name
  const [v1] = await smbV1.runOn(facts(WEAK, weak), fence.net(WEAK));
  assert.deepEqual(v1!.cves, [], 'MS17-010 is a Windows flaw: no EternalBlue CVE on Samba');
  for (const check of [smbSigningNotRequired, smbGuestShare, smbV1])
    assert.deepEqual(await check.runOn(facts(HARD, hard), fence.net(HARD)), [], `${check.id} on the hardened twin`);
});
