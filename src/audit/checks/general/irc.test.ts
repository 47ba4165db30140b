/**
 * IRC on a real Debian ngIRCd, two instances started once for the file:
 * the operator block of ngIRCd's sample configuration (TheOper/ThePwd)
 * is found by its 381 reply; the twin, the same block with its own
 * password, answers 464 and is not reported.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, which } from '../../../../test/helpers/daemons-kit.ts';
import { ngircdConf } from '../../../../test/helpers/voip-configs.ts';
import { hostOf, netFor, service, tempDir, writeFiles } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';

const NGIRCD = which('ngircd');
const [OPEN, HARD] = ['127.0.164.51', '127.0.164.52'];

function ngircd(address: string, password: string): Promise<number> {
  const dir = tempDir('ngircd');
  return daemon(address, NGIRCD!, (port) => {
    writeFiles(dir, { 'ngircd.conf': ngircdConf(address, port, dir, password) });
    return ['-n', '-f', join(dir, 'ngircd.conf')];
  });
}

test('ngIRCd: the sample operator password is found by 381; the twin with its own password is not', {
  skip: NGIRCD ? false : 'ngircd is not installed (apt-get install ngircd)',
}, async () => {
  const [open, hard] = await Promise.all([ngircd(OPEN, 'ThePwd'), ngircd(HARD, `t${randomBytes(8).toString('hex')}`)]);
  const run = (address: string, port: number) =>
    checkById('vigil.irc.oper-default').runOn(hostOf(address, [service(port, 'irc')]), netFor(address));
  const [f] = await run(OPEN, open);
  assert.match(
    f!.detail,
    /^Registered as vg[0-9a-f]+ \(004: irc\.vigil\.test ngircd-[\w.~-]+\); OPER TheOper ThePwd \(ngIRCd's sample-ngircd\.conf\) was answered ":irc\.vigil\.test 381 /,
  );
  assert.deepEqual(await run(HARD, hard), []);
});
