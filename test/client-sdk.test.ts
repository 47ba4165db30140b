import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.ts';
import { CONTRACTS, errorsOf } from '../src/api/contract/index.ts';
import { SCRIPTS } from '../src/api/scripts.ts';
import { type App, startApp } from '../src/app.ts';
import { VigilApiError, VigilClient } from '../src/client/index.ts';
import { ManualClock } from '../src/clock.ts';
import { buildConfig } from '../src/config.ts';
import { testDb } from './helpers/pgdb.ts';
import { freePort, tempDir } from './helpers/server.ts';

/**
 * The user side of the script table against one real serve: GET
 * /api/openapi.json checked by an OpenAPI 3.1 validator, the typed client's
 * methods and shared-name rule, its fresh login on sessionTimeout, unknown
 * fields, and the built package: plain `node` importing `vigil/client`, and
 * tsc checking test/sdk/uses.ts against the shipped .d.ts.
 */
const ROOT = resolve(import.meta.dirname, '..');
const PASSWORD = 'correct horse sdk';
const tsc = (args: string[], cwd = ROOT) =>
  spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), ...args], { cwd, encoding: 'utf8' });

describe('typed client, OpenAPI and unknown fields against a real serve', () => {
  let app: App;
  let clock: ManualClock;
  let ca: string;
  let url: string;
  let apikey: string;
  const warnings: any[] = [];
  const clients: VigilClient[] = [];
  const client = (options: Partial<ConstructorParameters<typeof VigilClient>[0]> = {}) => {
    const c = new VigilClient({ baseUrl: url, ca, ...options });
    clients.push(c);
    return c;
  };

  before(async () => {
    clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
    const dataDir = tempDir();
    // No audit workers: saRunAudit only queues.
    const config = buildConfig({
      dataDir,
      db: await testDb(dataDir),
      httpsPort: await freePort(),
      httpPort: 0,
      dnsPort: 0,
      forwardPort: 0,
      auditWorkers: 0,
    });
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    app = await startApp(config, { clock, logger });
    url = `https://${app.listeners.https}`;
    ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    ({ apikey } = await createAccount(app.services.db, clock, 'sdk', {
      password: PASSWORD,
      dnsCredits: 5,
      auditTypes: 'basic',
      allowIp: '127.0.0.1',
    }));
  });
  after(async () => {
    clients.forEach((c) => c.close());
    await app.close();
  });

  test('GET /api/openapi.json: a valid OpenAPI 3.1 document with every script, its fields and its codes', async () => {
    const r = await client().raw('GET', '/api/openapi.json');
    assert.equal(r.http, 200);
    assert.match(r.contentType, /^application\/json/);
    const doc = r.body;
    const validator = new Validator();
    const result = await validator.validate(doc);
    assert.deepEqual(result, { valid: true });
    assert.equal(validator.version, '3.1');
    assert.deepEqual(
      Object.keys(doc.paths).sort(),
      Object.keys(SCRIPTS)
        .map((s) => `/api/${s}`)
        .sort(),
    );
    for (const [name, script] of Object.entries(SCRIPTS)) {
      const post = doc.paths[`/api/${name}`].post;
      const ops = 'alias' in script ? script.operations : [script];
      const forms = post.requestBody.content['application/x-www-form-urlencoded'].schema;
      assert.equal((forms.anyOf ?? [forms]).length, ops.length, name);
      const replies = post.responses['200'].content['application/json'].schema.anyOf;
      const error = replies.at(-1).properties.error;
      const fixed: string[] = error.enum ?? error.anyOf[0].enum;
      for (const op of ops) {
        for (const p of Object.keys(op.params))
          assert.ok(
            (forms.anyOf ?? [forms]).some((f: any) => p in f.properties),
            `${name}: ${p}`,
          );
        for (const code of errorsOf(op)) if (!code.includes('[')) assert.ok(fixed.includes(code), `${name}: ${code}`);
      }
      assert.equal(post.responses['404'].content['application/json'].schema.properties.error.enum[0], 'unknownScript');
    }
    // Every served name has its declarations in CONTRACTS, which the typed client's methods come from.
    for (const name of Object.keys(SCRIPTS)) assert.ok(Object.hasOwn(CONTRACTS, name), `${name} in CONTRACTS`);
    // Both names of the four shared operations (spec note on 14, 18-20).
    for (const n of [
      'dnsAddCAA.php',
      'dnsSetSOA.php',
      'dnsSetOptions.php',
      'dnsPublish.php',
      'dnsAddNS.php',
      'dnsAddTXT.php',
    ])
      assert.ok(doc.paths[`/api/${n}`], n);
    assert.equal(
      doc.paths['/api/dnsAddTXT.php'].post.requestBody.content['application/x-www-form-urlencoded'].schema.anyOf.length,
      4,
    );
  });

  test('typed methods: the fields and replies of the table; shared names where the fields land', async () => {
    const c = client({ credentials: { apikey, userid: 'sdk', password: PASSWORD } });
    await c.dnsAddDomain({ domain: 'sdk.example', domaintype: 'master', aup: 'YES' });
    await c.dnsAddA({ domain: 'sdk.example', name: 'www', ip: '192.0.2.7' });
    // SOA set through the shared name: ttl makes the server choose SOA set.
    await c.dnsSetSOA({ domain: 'sdk.example', ttl: 3600 }, { via: 'dnsAddTXT.php' });
    // CAA through dnsAddNS.php (no nameserver, flag/tag/value sent).
    await c.dnsAddCAA(
      { domain: 'sdk.example', subdomain: '', flag: 0, tag: 'issue', value: 'ca.example' },
      { via: 'dnsAddNS.php' },
    );
    // Without admin or ttl the shared name would publish: the client posts to dnsSetSOA.php, which answers
    // missingInput.
    await assert.rejects(c.dnsSetSOA({ domain: 'sdk.example' }, { via: 'dnsAddTXT.php' }), { code: 'missingInput' });
    const records = Object.values((await c.dnsGetDomainRecords({ domain: 'sdk.example' })).records);
    assert.equal(records.find((r) => r.type === 'SOA')?.data.min, 3600);
    assert.deepEqual(
      records.filter((r) => r.type === 'CAA').map((r) => r.data.caaval),
      ['ca.example'],
    );
    assert.deepEqual(
      records.filter((r) => r.type === 'A').map((r) => r.data.data),
      ['192.0.2.7'],
    );
    const list = await c.dnsGetDomainList();
    assert.equal(list.domaincount, 1);
    const pub = await c.dnsPublish({ domain: 'sdk.example' }, { via: 'dnsAddTXT.php' });
    assert.equal(pub.status, '0');
    assert.match(
      (await c.dnsBuildZone({ domain: 'sdk.example' })).zone,
      /www\.sdk\.example\.\s+\d+\s+IN\s+A\s+192\.0\.2\.7/,
    );
    // saRunAudit answers the audit's id (extension field), the list's scanuid.
    const run = await c.saRunAudit({ audittype: 'basic', ipaddr: '127.0.0.1' });
    assert.match(run.scanuid, /^[1-9]\d*$/);
    assert.deepEqual(
      (await c.saGetAuditList()).scans?.map((s) => s.scanuid),
      [run.scanuid],
    );
    // An error reply: a VigilApiError with the spec code, decided by the table before run.
    await assert.rejects(
      c.dnsDeleteRecord({ seq: 'x' }),
      (e) => e instanceof VigilApiError && e.code === 'syntaxInvalidSeq',
    );
    await assert.rejects(c.call('saRunAudit.php', { audittype: 'desktop' }), { code: 'notEntitled' });
  });

  test('sessionTimeout: a client holding the credentials logs in afresh once; one without them reports it', async () => {
    const renewing = client({ credentials: { apikey, userid: 'sdk', password: PASSWORD } });
    const plain = client();
    await plain.login(apikey, 'sdk', PASSWORD);
    await renewing.saGetAuditList(); // logs in by itself first
    const before = renewing.sessionToken;
    clock.advance(24 * 3_600_000);
    assert.equal((await renewing.saGetAuditList()).status, '0');
    assert.notEqual(renewing.sessionToken, before, 'a new token');
    await assert.rejects(plain.saGetAuditList(), { code: 'sessionTimeout' });
  });

  test('unknown fields: logged by name (never by value) on spec scripts, refused on extension scripts', async () => {
    const c = client({ credentials: { apikey, userid: 'sdk', password: PASSWORD } });
    const seen = warnings.length;
    await c.call('dnsGetDomainList.php', { secretvalue: 'hunter2-value' } as never);
    const line = warnings.slice(seen).find((l) => l.msg === 'unknown fields');
    assert.deepEqual(line?.fields, ['secretvalue']);
    assert.ok(!JSON.stringify(warnings).includes('hunter2-value'), 'no value is logged');
    await assert.rejects(
      c.call('dnsAddWebForwarding.php', {
        domain: 'sdk.example',
        host: 'go',
        target: 'https://example.org/',
        tll: '60',
      } as never),
      { code: 'unknownParameter' },
    );
    // Auth and subscription come first, as on every script.
    await assert.rejects(
      client()
        .post('dnsAddWebForwarding.php', { apikey, sessionToken: 'bad', bogus: '1' })
        .then((r) => Promise.reject(r.body)),
      { error: 'sessionAuthenticationFailure' },
    );
  });

  test('the built package: plain node imports vigil/client; tsc checks the uses against its .d.ts', async () => {
    const pkg = join(tempDir(), 'node_modules', 'vigil');
    const consumer = resolve(pkg, '..', '..');
    mkdirSync(pkg, { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    // What `npm run build` makes, into the installed package's dist/ (the project's own dist/ is left alone).
    const build = tsc(['-p', 'tsconfig.build.json', '--outDir', join(pkg, 'dist')]);
    assert.equal(build.status, 0, build.stdout + build.stderr);
    writeFileSync(
      join(consumer, 'use.mjs'),
      `import { VigilClient } from 'vigil/client';
const c = new VigilClient({ baseUrl: process.argv[2], ca: process.env.CA, credentials: { apikey: process.argv[3], userid: 'sdk', password: process.argv[4] } });
const list = await c.dnsGetDomainList();
console.log(JSON.stringify({ count: list.domaincount, methods: [typeof c.dnsAddA, typeof c.dnsApplyChanges] }));
c.close();
`,
    );
    // Asynchronously: the server answering it runs in this process.
    const node = await promisify(execFile)(process.execPath, ['use.mjs', url, apikey, PASSWORD], {
      cwd: consumer,
      env: { ...process.env, CA: ca, NODE_OPTIONS: '' },
    });
    assert.deepEqual(JSON.parse(node.stdout), { count: 1, methods: ['function', 'function'] });
    // The same uses as the project's typecheck, against the shipped declarations.
    const uses = readFileSync(join(ROOT, 'test/sdk/uses.ts'), 'utf8').replace(
      "'../../src/client/index.ts'",
      "'vigil/client'",
    );
    writeFileSync(join(consumer, 'uses.ts'), uses);
    const options = {
      module: 'nodenext',
      target: 'es2022',
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
    };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['uses.ts'] }));
    const check = tsc(['-p', 'tsconfig.json'], consumer);
    assert.equal(check.status, 0, check.stdout + check.stderr);
  });
});
