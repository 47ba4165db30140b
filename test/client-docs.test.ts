// store-incidental: docs/client.md's CLI and SDK examples, which reach the store only through the API.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serve, type Served } from './helpers/server.ts';
import { type Ran, UserShell } from './helpers/user-cli.ts';

const ROOT = resolve(import.meta.dirname, '..');
const DOC = readFileSync(join(ROOT, 'docs/client.md'), 'utf8');

/** The examples of docs/client.md: each fenced block right after an `<!-- example: NAME -->` line. */
const EXAMPLES = new Map(
  [...DOC.matchAll(/<!-- example: (\S+) -->\n```(sh|ts)\n([\s\S]*?)```/g)].map((m) => [
    m[1]!,
    { lang: m[2]!, code: m[3]! },
  ]),
);

const TSC_FLAGS = [
  '--noEmit',
  '--strict',
  '--target',
  'es2022',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--allowImportingTsExtensions',
  '--skipLibCheck',
  '--types',
  'node',
  '--typeRoots',
  join(ROOT, 'node_modules/@types'),
];

describe('docs/client.md: every example, run as written against a real serve', () => {
  let s: Served;
  let u: UserShell;
  const ran = new Set<string>();

  /** Runs one example (shell blocks share the user's environment and directory, in doc order). */
  const run = async (name: string): Promise<Ran> => {
    const ex = EXAMPLES.get(name);
    assert.ok(ex, `docs/client.md has no example ${name}`);
    ran.add(name);
    if (ex.lang === 'sh') return u.bash(ex.code);
    // The SDK example imports the package export; here it gets the sources (an absolute path, which node, tsx
    // and tsc all take).
    // .mts: an ES module wherever it lies (the doc's top-level await needs one).
    const file = join(u.dir, `${name}.mts`);
    writeFileSync(file, ex.code.replace(`from 'vigil/client'`, `from '${join(ROOT, 'src/client/index.ts')}'`));
    // Type-checked first, against the SDK's sources with strict settings: a doc example that no longer
    // compiles fails here.
    // In the user's directory: the repository's tsconfig.json would refuse files named on the command line.
    const check = await exec(join(ROOT, 'node_modules/typescript/bin/tsc'), [...TSC_FLAGS, file], u.dir);
    assert.equal(check.code, 0, `example ${name} does not type-check:\n${check.stdout}${check.stderr}`);
    return exec('--import', ['tsx', file], ROOT);
  };
  const exec = (script: string, args: string[], cwd: string): Promise<Ran> =>
    new Promise((res) => {
      execFile(process.execPath, [script, ...args], { cwd, env: u.env }, (err, stdout, stderr) =>
        res({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const ok = async (name: string): Promise<Ran> => {
    const r = await run(name);
    assert.equal(r.code, 0, `example ${name} exited ${r.code}: ${r.stderr}`);
    return r;
  };

  before(async () => {
    // No hold: the doc's publish is a user's publish on a server whose operator released the domain.
    s = await serve({ args: ['--domain-hold', 'none'] });
    u = await UserShell.create(
      s,
      'alice',
      'correct horse 5',
      '--audit-types',
      'basic',
      '--allow-ip',
      '127.0.1.0/24',
      '--dns-credits',
      '5',
    );
  });
  after(() => s.stop());

  test('login writes the config', async () => {
    await ok('login');
    assert.equal(JSON.parse(readFileSync(u.env.VIGIL_CONFIG!, 'utf8')).userid, 'alice');
  });

  test('dns: the records added show in the table', async () => {
    const r = await ok('dns');
    assert.match(r.stdout, /^\d+ +A +name=www data=192\.0\.2\.7$/m);
    assert.match(r.stdout, /^\d+ +TXT +name="" data="v=spf1 mx -all" ttl=300$/m);
    assert.match(r.stdout, /^\d+ +example\.org +0 Unvalidated/m);
  });

  test('publish: the zone text, then published', async () => {
    const r = await ok('publish');
    assert.match(r.stdout, /^www\.example\.org\.\s+\d+\s+IN\s+A\s+192\.0\.2\.7$/m);
    assert.match(r.stdout, /^published example\.org/m);
  });

  test('import: the zone file becomes the records', async () => {
    await ok('import');
    const rec = JSON.parse(readFileSync(join(u.dir, 'records.json'), 'utf8'));
    const types = Object.values(rec.records as Record<string, any>)
      .map((x) => x.type)
      .sort();
    assert.deepEqual(types, ['A', 'CNAME', 'MX', 'NS', 'NS', 'NS', 'NS', 'SOA', 'TXT']);
  });

  test('dnssec: signing turned on, then NSEC3 chosen; keys come with the next distribution', async () => {
    const r = await ok('dnssec');
    const keys = 'keys are made at the next distribution; then give the parent the DS shown here\n';
    assert.equal(
      r.stdout,
      `example.org: signing on, NSEC\n${keys}${`example.org: signing on, NSEC3\n${keys}`.repeat(2)}`,
    );
  });

  test('settings: the SOA set, a slave domain given its master, then deleted', async () => {
    const r = await ok('settings');
    assert.match(r.stdout, /^set the SOA of example\.org; publish/m);
    assert.match(r.stdout, /^set the options of mirror\.example$/m);
    assert.match(r.stdout, /^deleted mirror\.example; \d+ domain\(s\) left/m);
  });

  test('audit: run --wait, list, report', async () => {
    const r = await ok('audit');
    assert.match(r.stdout, /^SCANUID +TYPE/m);
    assert.match(r.stdout, /^Vigil audit report: basic audit of 127\.0\.1\.1$/m);
    assert.match(readFileSync(join(u.dir, 'report.html'), 'utf8'), /^<!DOCTYPE html>/);
    const report = JSON.parse(readFileSync(join(u.dir, 'report.json'), 'utf8'));
    assert.equal(report.basic.hostip, '127.0.1.1');
  });

  test('schedule: a run on chosen ports, a schedule made, listed and deleted', async () => {
    const r = await ok('schedule');
    assert.match(r.stdout, /^audit \d+: basic of 127\.0\.1\.1, done/m);
    assert.match(r.stdout, /^ID +TYPE +TARGETS +PORTS +EVERY +ALERT +NOTIFY +EXCLUDE DOS +NEXT RUN +LAST AUDIT$/m);
    // The example schedules with --notify and without --exclude-dos.
    assert.match(r.stdout, /^\d+ +basic +127\.0\.1\.1 +- +week +changes +yes +no +\d{4}-\d\d-\d\dT/m);
    assert.match(r.stdout, /^schedule \d+ deleted$/m);
  });

  test('exit codes: the spec code on stderr, exit 1', async () => {
    const r = await ok('exit-codes');
    assert.equal(r.stdout, 'exit 1\n');
    assert.equal(r.stderr, 'vigil: noSuchDomain (dnsGetDomainRecords.php)\n');
  });

  test('sdk: logs in, lists, and reads the error code', async () => {
    const r = await ok('sdk');
    assert.equal(r.stdout, '2 domains\n2 A records\nrefused: noSuchDomain\n');
  });

  test('every example of the doc ran', () => {
    assert.deepEqual(
      [...EXAMPLES.keys()].filter((n) => !ran.has(n)),
      [],
    );
  });
});
