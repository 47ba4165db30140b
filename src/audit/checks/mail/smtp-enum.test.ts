/** SMTP user enumeration on a real Postfix: VRFY on is flagged, disable_vrfy_command = yes is not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { postfix } from '../../../../test/helpers/daemons-net.ts';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { Fence } from '../../engine/fence.ts';
import type { HostFacts } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';

const smtpUserEnum = checkById('vigil.smtp.user-enum');

const WEAK = '127.0.41.13';
const HARD = '127.0.41.14';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const facts = (address: string, port: number): HostFacts => ({
  address,
  openPorts: [port],
  services: [
    {
      port,
      protocol: 'tcp',
      name: 'smtp',
      product: null,
      version: null,
      banner: null,
      tls: null,
      http: null,
      extra: {},
    },
  ],
});

test('Postfix: VRFY tells root from an unknown name; the twin answers 502', {
  skip: (!which('postfix') && 'postfix not installed') || (process.getuid?.() !== 0 && 'needs root'),
}, async () => {
  const [weak, hard] = await Promise.all([postfix(WEAK, true), postfix(HARD, false)]);
  const [f] = await smtpUserEnum.runOn(facts(WEAK, weak), fence.net(WEAK));
  assert.match(f!.detail, /^VRFY root → 252 2\.0\.0 root; VRFY vigil\w+ → 550/);
  assert.deepEqual(await smtpUserEnum.runOn(facts(HARD, hard), fence.net(HARD)), []);
});
