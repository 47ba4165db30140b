import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../errors.ts';
import { defaultSoa, RECORD_TYPES, setOptions, setSoa } from './records.ts';

const Z = 'example.com';
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return e.code;
  }
};

test('SOA set: admin stored dotted with escaped local dots; ttl bounds; missingInput', () => {
  const soa = defaultSoa(Z, 'ns.vigil.test');
  assert.equal(setSoa(soa, { admin: 'john.doe@Example.com' }).mail, 'john\\.doe.example.com.');
  assert.equal(setSoa(soa, { ttl: '3600' }).min, 3600);
  assert.equal(codeOf(() => setSoa(soa, {})), 'missingInput');
  assert.equal(codeOf(() => setSoa(soa, { admin: '', ttl: '' })), 'missingInput');
  for (const admin of ['nope', '@example.com', 'a@', 'a b@example.com', 'a@b', 'a"@example.com', 'a..b@example.com']) {
    assert.equal(codeOf(() => setSoa(soa, { admin })), 'syntaxInvalidAdmin', admin);
  }
  for (const ttl of ['59', '2419201', '1e3', '-5', ' 60', '0x100']) assert.equal(codeOf(() => setSoa(soa, { ttl })), 'syntaxInvalidTTL', ttl);
});

test('Options: masters required for slave, lists validated, alsonotify needs notify', () => {
  assert.deepEqual(setOptions({ masters: '192.0.2.1, 2001:db8::1' }, 'slave'), { masters: '192.0.2.1,2001:db8::1', allowtransferacl: '', notify: '', alsonotify: '' });
  assert.equal(codeOf(() => setOptions({}, 'slave')), 'syntaxInvalidMasters');
  assert.equal(codeOf(() => setOptions({ masters: 'ns1.example.com' }, 'master')), 'syntaxInvalidMasters');
  assert.equal(codeOf(() => setOptions({ allowtransferacl: '10.0.0.0/33' }, 'master')), 'syntaxInvalidAllowtransferacl');
  assert.equal(codeOf(() => setOptions({ notify: 'YES' }, 'master')), 'syntaxInvalidNotify');
  assert.equal(codeOf(() => setOptions({ notify: 'explicit', alsonotify: '192.0.2.1;' }, 'master')), 'syntaxInvalidAlsoNotify');
  assert.equal(codeOf(() => setOptions({ notify: 'no', alsonotify: '192.0.2.1' }, 'master')), 'logicAlsoNotifyRequiresNotify');
});

test('CAA: flag and tag codes; value printable, iodef a URL', () => {
  const caa = (f: Record<string, string>) => codeOf(() => RECORD_TYPES.CAA.parse({ subdomain: '', flag: '0', tag: 'issue', value: 'ca.example', ...f }, Z));
  assert.equal(caa({}), 'ok');
  assert.equal(caa({ flag: '255' }), 'ok');
  assert.equal(caa({ flag: '256' }), 'syntaxInvalidFlag');
  assert.equal(caa({ flag: '' }), 'syntaxInvalidFlag');
  assert.equal(caa({ tag: 'ISSUE' }), 'syntaxInvalidTag');
  assert.equal(caa({ tag: 'iodef', value: 'mailto:sec@example.com' }), 'ok');
  assert.equal(caa({ tag: 'iodef', value: 'sec@example.com' }), 'unspecifiedError');
  assert.equal(caa({ value: 'a\nb' }), 'unspecifiedError');
  assert.equal(caa({ value: '$ORIGIN evil.' }), 'unspecifiedError');
  assert.equal(caa({ value: ';' }), 'ok', 'no CA may issue');
  assert.equal(caa({ value: 'letsencrypt.org; validationmethods=dns-01' }), 'ok');
  assert.deepEqual(RECORD_TYPES.CAA.zoneLines(RECORD_TYPES.CAA.parse({ subdomain: '', flag: '0', tag: 'iodef', value: 'mailto:a"b@example.com' }, Z), Z, 60), [
    'example.com.\t60\tIN\tCAA\t0 iodef "mailto:a\\"b@example.com"',
  ]);
});

test('SRV: owner _srvc._prot.host, "." target, numeric fields bounded', () => {
  const d = RECORD_TYPES.SRV.parse({ srvc: '_SIP', prot: 'TCP', host: 'voice', pri: '0', weight: '65535', port: '5060', target: '.' }, Z);
  assert.deepEqual(RECORD_TYPES.SRV.reply(d), { srvc: 'sip', prot: 'tcp', host: 'voice', pri: 0, weight: 65535, port: 5060, target: '.' });
  assert.equal(RECORD_TYPES.SRV.owner(d), '_sip._tcp.voice');
  assert.equal(codeOf(() => RECORD_TYPES.SRV.parse({ srvc: '123', prot: 'tcp', host: '', pri: '0', weight: '0', port: '0', target: '.' }, Z)), 'syntaxInvalidSrvc');
});

test('WebForwarding: http(s) target, cloak 0 or 1', () => {
  const wf = (f: Record<string, string>) => codeOf(() => RECORD_TYPES.WebForwarding.parse({ host: 'www', target: 'https://example.org/', ...f }, Z));
  assert.equal(wf({}), 'ok');
  assert.equal(wf({ cloak: '1' }), 'ok');
  assert.equal(wf({ cloak: '2' }), 'unspecifiedError');
  assert.equal(wf({ target: 'javascript:alert(1)' }), 'syntaxInvalidTarget');
  assert.deepEqual(RECORD_TYPES.WebForwarding.zoneLines(RECORD_TYPES.WebForwarding.parse({ host: 'www', target: 'https://example.org/' }, Z), Z, 60), []);
});
