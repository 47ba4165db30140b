import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.ts';
import type { LoginScript, Params, SessionScript } from '../src/api/call.ts';
import { SCRIPTS } from '../src/api/scripts.ts';
import { type App, startApp } from '../src/app.ts';
import { encodeForm, VigilClient } from '../src/client/index.ts';
import { ManualClock } from '../src/clock.ts';
import { buildConfig } from '../src/config.ts';
import { EXTENSION_CODES, SPEC_CODES, TRANSPORT_CODES } from '../src/errors.ts';
import { errorsOf } from '../src/api/contract/index.ts';
import { freePort, tempDir } from './helpers/server.ts';

/**
 * Property test over the form fields of every script in the script table
 * (src/api/scripts.ts), driven by each script's declared `params`: a new
 * script, or a new parameter, is fuzzed without touching this file.
 * Hostile and arbitrary values go into every field through the real HTTPS
 * API on loopback; every reply must be the spec's shape with a catalogued
 * code, never a 5xx, never an unexpected exception in the log.
 *
 * Bounded and repeatable: RUNS per operation (about 300 requests in all)
 * from a fixed seed. A longer hunt: FUZZ_RUNS=500 FUZZ_SEED=7 node --import tsx --test test/fuzz-scripts.test.ts
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261223);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const PASSWORD = 'correct horse fuzz';
const SPEC = new Set<string>(SPEC_CODES);
const EXTENSION = new Set<string>(EXTENSION_CODES);

/** Text that has broken parsers before: zone-file syntax, SQL, escapes, controls, numbers at the edges, size. */
const HOSTILE = [
  '',
  ' ',
  '\u0000',
  '\r\n',
  '\n$INCLUDE /etc/passwd',
  '$ORIGIN evil.',
  '"',
  '\\',
  '\\000',
  ';',
  '(',
  '@',
  '*',
  '.',
  '..',
  '-',
  '%',
  '%00',
  '%zz',
  '&',
  '=',
  '+',
  '<script>',
  "'; DROP TABLE domains; --",
  '-1',
  '0',
  '00',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '99999999999999999999999',
  '4294967296',
  'nosuch.example',
  'x.other.net.',
  '100',
  '256',
  '65536',
  '59',
  'x'.repeat(4001),
  '\ud800',
  '\ufffd',
  'bücher.example',
  'xn--zz.example',
  '::127.0.0.5',
  '::ffff:127.0.0.1',
  'fe80::1%eth0',
  '010.0.0.1',
  '0.0.0.0/0',
  '::/0',
  '*.*.*.*',
  'a'.repeat(64),
  `${'a.'.repeat(130)}example`,
  'x'.repeat(5000),
];
/**
 * Values each field's check accepts, so the checks after it run too. Loopback only (issue 12: every packet
 * stays on loopback).
 */
const VALID: Record<string, readonly string[]> = {
  userid: ['fuzz', 'nobody'],
  domain: ['fuzz.example', 'FUZZ.example.', 'fuzzslave.example'],
  domaintype: ['master', 'slave'],
  aup: ['YES'],
  name: ['', '@', 'www', '*'],
  ip: ['127.0.0.1', '::1', '::127.0.0.5'],
  alias: ['www', 'cn', '*.w'],
  mxname: ['mail', 'mail.other.net.'],
  priority: ['0', '10', '99'],
  subdomain: ['', 'sub', '_acme-challenge'],
  nameserver: ['ns1.other.net', 'ns1.sub.fuzz.example.', '127.0.0.1.'],
  flag: ['0', '128', '255'],
  tag: ['issue', 'issuewild', 'iodef'],
  value: ['ca.example', 'mailto:a@b.example', 'https://x.example/'],
  txtdata: ['v=spf1 -all', 'ü "quoted" \\ text'],
  srvc: ['sip', '_sip'],
  prot: ['tcp', '_udp'],
  host: ['', 'www', 'fuzz.example', 'go'],
  pri: ['0', '65535'],
  weight: ['0', '5'],
  port: ['53', '65535', '0'],
  target: ['www', '.', 'https://example.org/'],
  admin: ['dns@fuzz.example', 'a.b@c.example'],
  ttl: ['60', '86400'],
  masters: ['127.0.0.9', '127.0.0.9:5399', '[::1]:5399'],
  allowtransferacl: ['127.0.0.0/8', '::1'],
  notify: ['yes', 'no', 'explicit'],
  alsonotify: ['127.0.0.10', '127.0.0.10:5399'],
  cloak: ['0', '1'],
  seq: ['1', '2', '5'],
  scanuid: ['1', '2'],
  audittype: ['basic', 'norisk', 'advanced'],
  ipaddr: ['127.0.0.1', '127.0.0.1-2', '::1', '127.0.0.*'],
  excludedos: ['', 'yes'],
  notification: ['OCMP', 'none'],
  // Issue 31: ports and schedules.
  ports: ['22,80,443', '8000-8100', '1'],
  every: ['day', 'week', 'month'],
  alert: ['always', 'changes'],
  scheduleid: ['1', '2'],
  // Extension scripts (issue 16): a master file, a list of changes. Loopback only, as above.
  zone: ['', '$TTL 300\nwww IN A 127.0.0.1\n', 'txt IN TXT "a" "b"\n'],
  changes: ['[]', '[{"action":"add","type":"A","name":"w","ip":"127.0.0.1"}]', '[{"action":"delete","seq":"5"}]'],
};

const validFor = (field: string) => fc.constantFrom(...(VALID[field] ?? ['']));
const wild = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.integer().map(String), fc.double().map(String), fc.ipV4(), fc.ipV6(), fc.domain()),
  },
);
const valueFor = (field: string) => fc.oneof({ weight: 2, arbitrary: validFor(field) }, { weight: 1, arbitrary: wild });
type FormFields = Record<string, string | undefined>;

/**
 * The fields of one operation. Mostly a form that would pass with one
 * field made hostile or left out, so each field's own check meets the
 * hostile value (the checks before it pass); sometimes every field at random.
 */
function fieldsFor(params: Params): fc.Arbitrary<FormFields> {
  const names = Object.keys(params);
  const entries = (value: (name: string) => fc.Arbitrary<string>) =>
    Object.fromEntries(
      names.map((n) => [n, fc.option(value(n), { nil: undefined, freq: params[n]!.required ? 8 : 2 })]),
    );
  const allRandom = fc.record(entries(valueFor)) as fc.Arbitrary<FormFields>;
  if (!names.length) return allRandom;
  const base = fc.record(
    Object.fromEntries(
      names.map((n) => [n, params[n]!.required ? validFor(n) : fc.option(validFor(n), { nil: undefined, freq: 2 })]),
    ),
  );
  // null: no field changed, the form as a careful user would send it.
  const oneBad = fc
    .tuple(
      base as fc.Arbitrary<FormFields>,
      fc.constantFrom(null, ...names),
      fc.option(wild, { nil: undefined, freq: 6 }),
    )
    .map(([form, field, value]) => (field === null ? form : { ...form, [field]: value }));
  return fc.oneof({ weight: 3, arbitrary: oneBad }, { weight: 1, arbitrary: allRandom });
}

/**
 * A request for one operation: its fields, sometimes an unknown extra field, an odd encoding or hostile
 * credentials.
 */
const formFor = (params: Params) =>
  fc.record({
    fields: fieldsFor(params),
    extra: fc.option(fc.dictionary(fc.string({ maxLength: 10 }), valueFor(''), { maxKeys: 2 }), {
      nil: undefined,
      freq: 3,
    }),
    /** form: encoded fields; dup: one field sent twice; raw: any bytes as the body; huge: past the body limit. */
    encoding: fc.oneof(
      { weight: 12, arbitrary: fc.constant('form') },
      { weight: 1, arbitrary: fc.constantFrom('dup', 'raw', 'huge') },
    ),
    raw: fc.string({ unit: 'binary', maxLength: 80 }),
    /** Now and then the credentials are hostile too. */
    badAuth: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: valueFor('') }),
  });

const operationsOf = (name: string): readonly (SessionScript | LoginScript)[] => {
  const s = SCRIPTS[name]!;
  return 'alias' in s ? s.operations : [s];
};

describe('fuzz: hostile values in every field of every script (seeded, bounded)', () => {
  let app: App;
  let c: VigilClient;
  let login: VigilClient;
  const errors: unknown[] = [];
  /** Replies by outcome, shown at the end: proof the fuzz reaches past the first checks. */
  const outcomes = new Map<string, number>();

  before(async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
    const dataDir = tempDir();
    // No audit workers: a fuzzed saRunAudit may queue an audit, none is ever run.
    const config = buildConfig({
      dataDir,
      httpsPort: await freePort(),
      httpPort: 0,
      dnsPort: 0,
      forwardPort: 0,
      auditWorkers: 0,
      domainHold: 'manual',
    });
    const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line)) });
    app = await startApp(config, { clock, logger });
    const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const baseUrl = `https://${app.listeners.https}`;
    c = new VigilClient({ baseUrl, ca });
    // auth.php is fuzzed from another loopback address: its failed guesses cannot throttle the session's calls.
    login = new VigilClient({ baseUrl, ca, localAddress: '127.0.0.2' });
    // Audits only of 127.0.0.1, only basic; the server's --scan-allow default fences 127.0.0.0/8 anyway.
    const { apikey } = await createAccount(app.services.db, clock, 'fuzz', {
      password: PASSWORD,
      dnsCredits: 100,
      auditTypes: 'basic',
      allowIp: '127.0.0.1',
    });
    await c.login(apikey, 'fuzz', PASSWORD);
    login.apikey = apikey;
  });

  /** The account's two domains, back if a fuzzed dnsDeleteDomain took them, so every script meets a domain it owns. */
  async function domainsBack() {
    for (const [domain, domaintype] of [
      ['fuzz.example', 'master'],
      ['fuzzslave.example', 'slave'],
    ]) {
      const r = await c.post('dnsAddDomain.php', {
        apikey: c.apikey,
        sessionToken: c.sessionToken,
        domain,
        domaintype,
        aup: 'YES',
      });
      assert.ok(r.body.status === '0' || r.body.error === 'unableToAddDuplicate', JSON.stringify(r.body));
    }
  }
  after(async () => {
    c.close();
    login.close();
    await app.close();
  });

  /** The reply rules of the spec (section 1, 7) and docs/api.md, for any request. */
  function check(script: string, r: { http: number; contentType: string; body: any }) {
    const where = `${script}: ${r.http} ${JSON.stringify(r.body).slice(0, 200)}`;
    const outcome = `${r.http} ${r.body?.status === '0' ? 'ok' : r.body?.error}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    assert.ok(r.http < 500, `never a 5xx: ${where}`);
    assert.match(r.contentType, /^application\/json/, where);
    assert.equal(typeof r.body, 'object', where);
    if (r.body.status === '0') return assert.equal(r.http, 200, where);
    assert.deepEqual(Object.keys(r.body).sort(), ['error', 'status'], where);
    assert.equal(r.body.status, '-1', where);
    const code = String(r.body.error);
    // Not only a catalogued code: one the table declares for this script (src/api/contract/), so OpenAPI and
    // the docs list every answer.
    const declared = new Set(
      operationsOf(script)
        .flatMap(errorsOf)
        .map((e) => e.replace(/\[<\w+>\]$/, '[*]')),
    );
    if (r.http === 200)
      assert.ok(
        declared.has(code.replace(/\[\w+\]$/, '[*]')) &&
          (SPEC.has(code) || EXTENSION.has(code) || code.startsWith('reportLoadFailure[')),
        `a code the table declares: ${where}`,
      );
    else if (r.http === 429)
      assert.ok(script === 'auth.php' && SPEC.has(code), `only a throttled login answers 429: ${where}`);
    else
      assert.equal(
        TRANSPORT_CODES[code as keyof typeof TRANSPORT_CODES],
        r.http,
        `a transport code with its own HTTP status: ${where}`,
      );
  }

  for (const script of Object.keys(SCRIPTS)) {
    operationsOf(script).forEach((op, i) => {
      test(`${script}${operationsOf(script).length > 1 ? ` (operation ${i + 1}: ${Object.keys(op.params).join(' ') || 'no params'})` : ''}`, async () => {
        const client = op.session ? c : login;
        await domainsBack();
        await fc.assert(
          fc.asyncProperty(formFor(op.params), async ({ fields, extra, encoding, raw, badAuth }) => {
            const auth = {
              apikey: badAuth ?? client.apikey,
              sessionToken: op.session ? client.sessionToken : undefined,
            };
            let body = encodeForm({ ...extra, ...auth, ...fields });
            if (encoding === 'dup') body += `&${body.split('&').at(-1)}`;
            if (encoding === 'raw') body = `${encodeForm(auth)}&${raw}`;
            if (encoding === 'huge') body += `&pad=${'x'.repeat(300 * 1024)}`;
            const logged = errors.length;
            check(script, await client.raw('POST', `/api/${script}`, body));
            // An exception a script did not expect is answered with its system error and logged: a defect all the same.
            assert.equal(
              errors.length,
              logged,
              `unexpected failure logged: ${String(JSON.stringify(errors.at(-1))).slice(0, 300)}`,
            );
          }),
          { seed: SEED + script.length * 31 + i, numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
        );
      });
    });
  }

  test('afterwards: the server still answers, and nothing was logged as an unexpected failure', async (t) => {
    t.diagnostic(`outcomes: ${JSON.stringify(Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1])))}`);
    assert.equal((await c.call('dnsGetDomainList.php')).status, '0');
    assert.equal((await c.call('saGetAuditList.php')).status, '0');
    assert.deepEqual(errors, []);
  });
});
