import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { buildZone } from '../zone.ts';
import { everyTypeModel, everyTypeZone, FORWARDER, ZONE } from './fixture.ts';
import { generateKey } from './keys.ts';
import { masterFile } from './present.ts';
import { signZone } from './zone.ts';

/**
 * What is signed is what Vigil publishes: BIND's named-compilezone reads
 * the zone text publish writes (src/dns/zone.ts) and the signed text, and
 * prints both in its own canonical form; without the DNSSEC records they
 * must be the same records, but for what the fixture adds on purpose.
 */
const HAVE_COMPILE = spawnSync('which', ['named-compilezone']).status === 0;

function compiled(text: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-present-'));
  try {
    writeFileSync(join(dir, 'in'), text);
    const r = spawnSync(
      'named-compilezone',
      ['-q', '-i', 'none', '-k', 'ignore', '-n', 'ignore', '-s', 'full', '-o', join(dir, 'out'), ZONE, join(dir, 'in')],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    return spawnSync('cat', [join(dir, 'out')], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((l) => l && !l.startsWith(';'))
      .map((l) => l.split(/\s+/).join(' '))
      .sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the signed zone holds exactly the records of Vigil's published zone text, read back by BIND", (t) => {
  if (!HAVE_COMPILE) return t.skip('named-compilezone not installed');
  const keys = [
    { key: generateKey('ksk'), sign: true },
    { key: generateKey('zsk'), sign: true },
  ];
  const signed = signZone(ZONE, everyTypeZone(), keys, { clock: new ManualClock() });
  const dnssec = / IN (RRSIG|NSEC|NSEC3|NSEC3PARAM|DNSKEY) /;
  const ours = compiled(masterFile(signed.records)).filter((l) => !dnssec.test(l));
  const published = compiled(buildZone(everyTypeModel()));
  // The fixture's additions: the forwarder's address (publish leaves it to the server), a secure delegation, an SSHFP.
  const extra = (l: string) =>
    l.startsWith(`go.${ZONE}. 3600 IN A ${FORWARDER}`) || l.startsWith(`secure.${ZONE}.`) || / IN SSHFP /.test(l);
  assert.deepEqual(
    ours.filter((l) => !extra(l)),
    published,
  );
  assert.equal(ours.filter(extra).length, 4);
  assert.ok(published.length > 20, 'the published zone was read');
});
