import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RECORD_TYPES, type Fields } from './records.ts';
import { validateZone } from './validate.ts';
import { buildZone, type ZoneModel, type ZoneRecord } from './zone.ts';
import { EVERY_TYPE_ZONE, everyTypeZone } from './every-type.fixture.ts';

/**
 * A second opinion on the zone text: BIND's own parser. `-i local` keeps it
 * off the network; `-k fail -n fail` make host-name and NS problems fatal,
 * as a BIND primary would.
 */
const HAVE_CHECKZONE = spawnSync('which', ['named-checkzone']).status === 0;

function checkzone(zone: string, text: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-zone-'));
  try {
    const file = join(dir, 'zone');
    writeFileSync(file, text);
    const r = spawnSync('named-checkzone', ['-i', 'local', '-k', 'fail', '-n', 'fail', zone, file], {
      encoding: 'utf8',
    });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const Z = EVERY_TYPE_ZONE;
let seq = 0;
const rec = (type: ZoneRecord['type'], fields: Fields): ZoneRecord => ({
  seq: ++seq,
  type,
  data: RECORD_TYPES[type].parse(fields, Z),
});
const everyType = (): ZoneModel => everyTypeZone(() => ++seq);

test('named-checkzone accepts a zone with every record type', (t) => {
  if (!HAVE_CHECKZONE) return t.skip('named-checkzone not installed');
  const model = everyType();
  assert.deepEqual(validateZone(model), { errors: [], warnings: [] }, 'and Vigil finds nothing to say either');
  const text = buildZone(model);
  const r = checkzone(Z, text);
  assert.ok(r.ok, `${r.output}\n${text}`);
  assert.match(r.output, /loaded serial 2026112301/);
});

test('named-checkzone reads escaped names of a transferred zone as data, not directives', (t) => {
  if (!HAVE_CHECKZONE) return t.skip('named-checkzone not installed');
  const model = everyType();
  // What a hostile master could send: names and text no add would accept.
  model.records.push(
    { seq: ++seq, type: 'TXT', data: { name: 'x\n$INCLUDE /etc/passwd', data: 'a\n$ORIGIN evil.\n' } },
    { seq: ++seq, type: 'TXT', data: { name: 'a b;c(d)"e\\f', data: 'x' } },
    { seq: ++seq, type: 'CNAME', data: { name: 'c', data: 'ta rget\n@ IN NS evil.' } },
  );
  const text = buildZone(model);
  assert.equal(text.split('\n').filter((l) => l.startsWith('$')).length, 2, 'only $ORIGIN and $TTL');
  const r = checkzone(Z, text);
  assert.ok(r.ok, `${r.output}\n${text}`);
});

test('named-checkzone refuses what validation calls an error (a CNAME beside other data)', (t) => {
  if (!HAVE_CHECKZONE) return t.skip('named-checkzone not installed');
  const model = everyType();
  model.records.push(rec('CNAME', { alias: 'www', name: 'mail' }));
  assert.match(validateZone(model).errors.join(), /CNAME at www\..* beside other records/);
  assert.equal(checkzone(Z, buildZone(model)).ok, false);
});
