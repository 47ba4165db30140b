import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../errors.ts';
import { defaultSoa, RECORD_TYPES, setOptions, setSoa, soaLine, type Fields } from './records.ts';

const Z = 'example.com';
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
};

test('SOA: the default, its reply and its line', () => {
  const soa = defaultSoa(Z, 'ns.vigil.test');
  assert.deepEqual(soa, {
    priNS: 'ns1.ns.vigil.test.',
    mail: 'hostmaster.example.com.',
    refresh: 10800,
    retry: 3600,
    exp: 1209600,
    min: 86400,
  });
  assert.deepEqual(RECORD_TYPES.SOA.reply(soa), soa);
  assert.equal(RECORD_TYPES.SOA.owner(soa), '');
  assert.equal(
    soaLine(soa, Z, 2026112301, 86400),
    'example.com.\t86400\tIN\tSOA\tns1.ns.vigil.test. hostmaster.example.com. 2026112301 10800 3600 1209600 86400',
  );
});

test('SOA set: admin stored dotted, dots of the local part escaped', () => {
  const soa = defaultSoa(Z, 'ns.vigil.test');
  assert.equal(setSoa(soa, { admin: 'dns@example.org' }).mail, 'dns.example.org.');
  assert.equal(setSoa(soa, { admin: 'John.Doe@Example.com' }).mail, 'john\\.doe.example.com.');
  assert.equal(setSoa(soa, { admin: 'dns+zone@bücher.de' }).mail, 'dns+zone.xn--bcher-kva.de.');
  assert.deepEqual(
    setSoa(soa, { admin: 'a@b.example', ttl: '' }),
    { ...soa, mail: 'a.b.example.' },
    'blank ttl leaves the minimum',
  );
  assert.equal(soa.mail, 'hostmaster.example.com.', 'the current SOA is not changed in place');
  for (const admin of [
    'nope',
    '@example.com',
    'a@',
    'a@b',
    'a b@example.com',
    'a"@example.com',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    'a;b@example.com',
    'a\n@example.com',
    'a@example.com\n',
    'a@exa mple.com',
    `${'a'.repeat(64)}@example.com`,
    `a@${'b'.repeat(10_000)}.com`,
    'a\u0000@example.com',
  ]) {
    assert.equal(
      codeOf(() => setSoa(soa, { admin })),
      'syntaxInvalidAdmin',
      JSON.stringify(admin.slice(0, 30)),
    );
  }
});

test('SOA set: ttl is the minimum TTL, 60 s to four weeks; one of the two is needed', () => {
  const soa = defaultSoa(Z, 'ns.vigil.test');
  assert.equal(setSoa(soa, { ttl: '3600' }).min, 3600);
  assert.equal(setSoa(soa, { ttl: '60' }).min, 60);
  assert.equal(setSoa(soa, { ttl: '2419200' }).min, 2419200);
  for (const ttl of [
    '59',
    '0',
    '2419201',
    '1e3',
    '-5',
    '+60',
    ' 60',
    '60 ',
    '0x100',
    '3600.0',
    'abc',
    '9'.repeat(10_000),
    '60\u0000',
  ]) {
    assert.equal(
      codeOf(() => setSoa(soa, { ttl })),
      'syntaxInvalidTTL',
      JSON.stringify(ttl.slice(0, 20)),
    );
  }
  assert.equal(
    codeOf(() => setSoa(soa, {})),
    'missingInput',
  );
  assert.equal(
    codeOf(() => setSoa(soa, { admin: '', ttl: '' })),
    'missingInput',
  );
  assert.equal(
    codeOf(() => setSoa(soa, { admin: undefined, ttl: undefined })),
    'missingInput',
  );
});

test('Options: masters required for slaves, optional (but checked) for masters', () => {
  const empty = { masters: '', allowtransferacl: '', notify: '', alsonotify: '' };
  assert.deepEqual(setOptions({ masters: '192.0.2.1, 2001:DB8::1, [2001:db8::2]:5353, 192.0.2.3:5300' }, 'slave'), {
    ...empty,
    masters: '192.0.2.1,2001:db8::1,[2001:db8::2]:5353,192.0.2.3:5300',
  });
  for (const masters of [
    undefined,
    '',
    ' ',
    'ns1.example.com',
    '192.0.2.1,',
    '192.0.2.1;192.0.2.2',
    '192.0.2.1:0',
    '010.0.0.1',
    'x'.repeat(10_001),
  ]) {
    assert.equal(
      codeOf(() => setOptions({ masters }, 'slave')),
      'syntaxInvalidMasters',
      String(masters).slice(0, 20),
    );
  }
  assert.deepEqual(setOptions({}, 'master'), empty);
  assert.deepEqual(setOptions({ masters: ' ' }, 'master'), empty);
  assert.deepEqual(setOptions({ masters: '192.0.2.1' }, 'master'), { ...empty, masters: '192.0.2.1' });
  assert.equal(
    codeOf(() => setOptions({ masters: 'a\u0000b' }, 'master')),
    'syntaxInvalidMasters',
  );
});

test('Options: transfer ACL, notify, also-notify', () => {
  const set = (f: Fields) => setOptions(f, 'master');
  assert.deepEqual(
    set({
      allowtransferacl: '192.0.2.0/24, 2001:db8::/32,192.0.2.7',
      notify: 'explicit',
      alsonotify: '192.0.2.8, 192.0.2.9:5353',
    }),
    {
      masters: '',
      allowtransferacl: '192.0.2.0/24,2001:db8::/32,192.0.2.7',
      notify: 'explicit',
      alsonotify: '192.0.2.8,192.0.2.9:5353',
    },
  );
  assert.equal(set({ notify: 'no' }).notify, 'no');
  assert.equal(set({ notify: 'yes', alsonotify: '192.0.2.1' }).alsonotify, '192.0.2.1');
  for (const allowtransferacl of [
    'x',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/',
    '10.0.0.0/08',
    '010.0.0.0/8',
    '10/8',
    '0x0a.0.0.0/8',
    '10.0.0.0/8;',
    'any',
  ]) {
    assert.equal(
      codeOf(() => set({ allowtransferacl })),
      'syntaxInvalidAllowtransferacl',
      allowtransferacl,
    );
  }
  for (const notify of ['YES', 'true', ' yes', 'yes\n'])
    assert.equal(
      codeOf(() => set({ notify })),
      'syntaxInvalidNotify',
      notify,
    );
  for (const alsonotify of ['x', '192.0.2.1;', '192.0.2.0/24', '192.0.2.1,,192.0.2.2']) {
    assert.equal(
      codeOf(() => set({ notify: 'yes', alsonotify })),
      'syntaxInvalidAlsoNotify',
      alsonotify,
    );
  }
  for (const notify of [undefined, '', 'no']) {
    assert.equal(
      codeOf(() => set({ notify, alsonotify: '192.0.2.1' })),
      'logicAlsoNotifyRequiresNotify',
      String(notify),
    );
  }
  assert.deepEqual(RECORD_TYPES.Options.reply(set({ notify: 'yes' })), {
    allowtransferacl: '',
    notify: 'yes',
    alsonotify: '',
    masters: '',
  });
});
