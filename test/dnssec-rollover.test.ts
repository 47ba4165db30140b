import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { freePort, tempDir } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 19';
const Z = 'roll.example';
const DAY = 86_400_000;
const missing = ['dig', 'kzonecheck'].filter((t) => !hasTool(t));

/**
 * Key rollovers on the injected clock (issue 19): the ZSK rolls by itself
 * by pre-publication, the KSK on the user's two commands. At each step the
 * transferred zone goes through Knot's kzonecheck at the clock's time (it
 * takes the time; BIND's tools only know the system's), and the RRSIGs are
 * read to see which key signs.
 */
describe('DNSSEC key rollovers', { skip: missing.length ? `missing ${missing.join(', ')}` : false }, () => {
  let t: TestApp;
  let c: VigilClient;
  let port: number;
  const dir = tempDir('vigil-roll-');
  const cycle = () => (t.app.services.dns.schedule as CycleLoop).cycle();
  const status = () => c.call('dnsGetDNSSEC.php', { domain: Z });
  let apikey = '';
  /** Days pass: the session has long expired, so the user logs in again. */
  const advance = async (ms: number) => {
    t.clock.advance(ms);
    await c.login(apikey, 'roller', PASSWORD);
  };

  before(async () => {
    port = await freePort();
    // 127.0.0.1 as a secondary: the test's dig may transfer the zone.
    t = await startTestApp({
      dnsPort: port,
      domainHold: 'none',
      nsDomain: 'ns.vigil.test',
      secondaries: ['127.0.0.1:53'],
    });
    c = t.client();
    apikey = await t.account('roller', PASSWORD, { dnsCredits: 10 });
    await c.login(apikey, 'roller', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    await c.call('dnsAddA.php', { domain: Z, name: 'www', ip: '192.0.2.1' });
    await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES' });
    await c.call('dnsPublish.php', { domain: Z });
    await cycle();
  });
  after(() => t?.close());

  /**
   * The zone as transferred now: kzonecheck at the clock's time must pass; returns the key tags signing A and
   * DNSKEY, and the DNSKEY count.
   */
  async function check(): Promise<{ a: number[]; dnskey: number[]; keys: number; cds: number }> {
    const { stdout } = await run('dig', [
      '@127.0.0.1',
      '-p',
      String(port),
      Z,
      'AXFR',
      '+nocmd',
      '+nostats',
      '+nocomments',
    ]);
    const lines = stdout.trim().split('\n').slice(0, -1);
    const file = join(dir, 'zone');
    writeFileSync(file, lines.join('\n') + '\n');
    await run('kzonecheck', ['--dnssec', 'on', '-t', String(Math.floor(t.clock.now() / 1000)), '-o', Z, file]);
    const sigs = (type: string) =>
      lines
        .filter((l) => new RegExp(`\\sRRSIG\\s+${type}\\s`).test(l))
        .map((l) => Number(l.split(/\s+/)[10]))
        .sort();
    const count = (type: string) => lines.filter((l) => new RegExp(`\\sIN\\s+${type}\\s`).test(l)).length;
    return { a: sigs('A'), dnskey: sigs('DNSKEY'), keys: count('DNSKEY'), cds: count('CDS') };
  }

  const tags = async (role: string, signing?: boolean) =>
    ((await status()).keys as { tag: number; role: string; signing: boolean }[])
      .filter((k) => k.role === role && (signing === undefined || k.signing === signing))
      .map((k) => k.tag);

  test('ZSK: pre-published before its successor signs, retired, then removed', async () => {
    const [zsk1] = await tags('zsk');
    assert.deepEqual((await check()).a, [zsk1]);
    // An hour before the 30-day lifetime ends (inside the publish lead: interval + propagation + DNSKEY TTL,
    // 2 h 5 min here): the successor is published, the old key still signs.
    await advance(30 * DAY - 3_600_000);
    await cycle();
    const [zsk2] = await tags('zsk', false);
    assert.ok(zsk2 && zsk2 !== zsk1, 'a successor, published only');
    let z = await check();
    assert.deepEqual([z.keys, z.a], [3, [zsk1]]);
    // Past its activation: the new key signs, the old one stays published for cached signatures.
    await advance(130 * 60_000);
    await cycle();
    z = await check();
    assert.deepEqual([z.keys, z.a], [3, [zsk2]]);
    assert.deepEqual(await tags('zsk', true), [zsk2]);
    // Past the largest TTL (a day) and the propagation margin: the old key leaves the DNSKEY set.
    await advance(DAY + 2 * 3_600_000);
    await cycle();
    z = await check();
    assert.deepEqual([z.keys, z.a], [2, [zsk2]]);
    assert.deepEqual(await tags('zsk'), [zsk2]);
  });

  test('KSK: the first command adds a KSK (two DS, both sign the DNSKEY set), the second takes the old one out', async () => {
    const [ksk1] = await tags('ksk');
    const started = await c.call('dnsRollDNSSECKey.php', { domain: Z });
    assert.equal(started.step, 'started');
    assert.equal(started.ds.length, 2, 'the new DS to give the parent, beside the old');
    await cycle();
    let z = await check();
    const ksks = await tags('ksk', true);
    assert.equal(ksks.length, 2);
    assert.deepEqual(z.dnskey, [...ksks].sort(), 'both KSKs sign the DNSKEY set');
    assert.deepEqual([z.keys, z.cds], [3, 2]);
    const finished = await c.call('dnsRollDNSSECKey.php', { domain: Z });
    assert.equal(finished.step, 'finished');
    assert.equal(finished.ds.length, 1);
    await cycle();
    z = await check();
    const [ksk2] = await tags('ksk');
    assert.notEqual(ksk2, ksk1);
    assert.deepEqual([z.keys, z.cds, z.dnskey], [2, 1, [ksk2]]);
  });
});
