import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GENERATED } from './generated.ts';
import { displayLine } from './display.ts';

for (const g of GENERATED) {
  test(`${g.file} is what the record table makes (npm run gen:record-forms)`, () => {
    assert.equal(readFileSync(g.file, 'utf8'), g.source());
  });
}

test('display templates: a blank owner is @, SRV shows its underscores, {.field} is left out when blank', () => {
  assert.equal(displayLine('{host|@} → {data}', { host: '', data: 'mail.example.org.' }), '@ → mail.example.org.');
  const srv = '_{srvc}._{prot}{.host} {pri} {weight} {port} {target}';
  const fields = { srvc: 'sip', prot: 'tcp', pri: 1, weight: 2, port: 5060, target: 'sip.example.org.' };
  assert.equal(displayLine(srv, { ...fields, host: '' }), '_sip._tcp 1 2 5060 sip.example.org.');
  assert.equal(displayLine(srv, { ...fields, host: 'voice' }), '_sip._tcp.voice 1 2 5060 sip.example.org.');
});
