/**
 * RADIUS on real FreeRADIUS: a client entry for the scanner's address with
 * the shipped secret "testing123" is found from one Access-Reject's
 * Response Authenticator; the twin, the same entry with a long random
 * secret, rejects the request too, and no candidate verifies its reply.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { onCleanup, stop, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { netFor } from '../../../../test/helpers/web-daemons.ts';
import { FREERADIUS_BINARIES, freeradiusPlan } from '../../../../test/helpers/auth-services-daemons.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.189.1';
const HARD = '127.0.189.2';
const missing = FREERADIUS_BINARIES.filter((b) => !which(b));
const check = checkById('vigil.radius.default-secret');

/** FreeRADIUS in the foreground on address:1812; ready when it says so (it answers only signed requests). */
function freeradius(address: string, weak: boolean): Promise<void> {
  const plan = freeradiusPlan(tempDir('freeradius'), address, 1812, weak);
  const p = spawn(plan.cmd, plan.args, { env: plan.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  onCleanup(() => stop(p));
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer) => {
      out = (out + d).slice(-4000);
      if (/Ready to process requests/.test(out)) resolve();
    };
    p.stdout!.on('data', seen);
    p.stderr!.on('data', seen);
    p.once('exit', (code) => reject(new Error(`freeradius exited (${code}): ${out}`)));
  });
}

test('FreeRADIUS: the shipped secret testing123 is proven by the reply; a random secret is not found', {
  skip: missing.length ? `FreeRADIUS is not installed (${missing.join(', ')})` : false,
}, async () => {
  await Promise.all([freeradius(WEAK, true), freeradius(HARD, false)]);
  const none = (address: string) => ({ address, openPorts: [], services: [] });
  const [found] = await check.runOn(none(WEAK), netFor(WEAK));
  assert.equal(found?.port, 1812);
  assert.match(
    found!.detail,
    /^Access-Request \(id \d+, User-Name "vigil-probe-\w+", no Message-Authenticator\) was answered Access-Reject \(code 3, \d+ bytes\) whose Response Authenticator equals MD5\(.*"testing123"\): the shared secret is "testing123"\.$/,
  );
  assert.deepEqual(await check.runOn(none(HARD), netFor(HARD)), []);
});
