// store-incidental: the build, npm pack and bin/vigil's choice of dist/ or the sources.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { tempDir } from './helpers/server.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

describe('dist/: compiled at install, run only while it matches the sources', () => {
  // A copy of the parts the build reads, sharing the installed node_modules,
  // so that the test can edit sources and dist/ without touching the checkout.
  const copy = tempDir('vigil-build-');
  for (const p of ['bin', 'scripts', 'src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'])
    cpSync(join(ROOT, p), join(copy, p), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  const help = async () => (await run(join(copy, 'bin', 'vigil'), ['--help'])).stdout;
  const edit = (file: string, from: string, to: string) => {
    const path = join(copy, file);
    const text = readFileSync(path, 'utf8');
    assert.ok(text.includes(from), `${file} holds ${from}`);
    writeFileSync(path, text.replace(from, to));
  };
  const build = () => {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: copy, encoding: 'utf8' });
    assert.equal(b.status, 0, b.stderr);
    assert.match(b.stdout, /compiled src\/ to dist\//, b.stdout + b.stderr);
  };

  test('the build (npm ci runs it as prepare) writes JavaScript with .js imports, and no tests', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.equal(pkg.scripts.prepare, 'node scripts/build.mjs');
    build();
    const main = readFileSync(join(copy, 'dist', 'cli', 'main.js'), 'utf8');
    assert.match(main, /from '\.\/version\.js'/);
    assert.match(main, /import\('\.\/admin\.js'\)/, 'dynamic imports are rewritten too');
    assert.match(main, /import\('\.\.\/dns\/server\/workers\.js'\)/, 'dynamic imports are rewritten too');
    assert.throws(() => readFileSync(join(copy, 'dist', 'duration.test.js')), 'tests stay TypeScript');
    for (const fixture of ['dns/every-type.fixture.js', 'dns/dnssec/fixture.js'])
      assert.throws(() => readFileSync(join(copy, 'dist', fixture)), `${fixture}: test fixtures stay out of dist/`);
  });

  test('npm pack: the tarball carries dist/, and another project imports vigil/client from it (docs/client.md)', async (t) => {
    if (spawnSync('npm', ['--version']).error) return t.skip('npm is not on PATH');
    // dist/ is in .gitignore, which npm pack would follow but for package.json's "files".
    const out = tempDir('vigil-pack-');
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', out], {
      cwd: copy,
      encoding: 'utf8',
    });
    assert.equal(pack.status, 0, pack.stderr);
    const tarball = join(out, pack.stdout.trim().split('\n').at(-1)!);
    // What `npm install ./vigil-0.1.0.tgz` puts in node_modules (the SDK needs none of the dependencies).
    const project = tempDir('vigil-sdk-user-');
    const pkg = join(project, 'node_modules', 'vigil');
    mkdirSync(pkg, { recursive: true });
    const x = spawnSync('tar', ['-xzf', tarball, '-C', pkg, '--strip-components=1'], { encoding: 'utf8' });
    assert.equal(x.status, 0, x.stderr);
    writeFileSync(
      join(project, 'use.mjs'),
      "import { VigilClient } from 'vigil/client';\nconsole.log(typeof new VigilClient({ baseUrl: 'https://127.0.0.1:1' }).call);\n",
    );
    assert.equal((await run(process.execPath, [join(project, 'use.mjs')], { cwd: project })).stdout, 'function\n');
  });

  test('bin/vigil runs dist/ when it matches and the sources (tsx) after any change', async () => {
    // Marks that only the compiled file carries: which one runs shows in --help.
    edit('dist/cli/main.js', 'behind one HTTPS API', 'behind one HTTPS API (compiled)');
    assert.match(await help(), /\(compiled\)/);
    edit('src/cli/main.ts', 'behind one HTTPS API', 'behind one HTTPS API (edited source)');
    const edited = await help();
    assert.match(edited, /\(edited source\)/);
    assert.doesNotMatch(edited, /\(compiled\)/);
    build();
    edit('dist/cli/main.js', '(edited source)', '(compiled again)');
    assert.match(await help(), /\(compiled again\)/);
    writeFileSync(join(copy, 'src', 'added.ts'), 'export const added = 1;\n');
    assert.match(await help(), /\(edited source\)/, 'a new source file makes dist/ stale');
    rmSync(join(copy, 'src', 'added.ts'));
    assert.match(await help(), /\(compiled again\)/, 'and its removal fresh again');
    rmSync(join(copy, 'dist', '.sources.json'));
    assert.match(await help(), /\(edited source\)/, 'an unfinished build is not run');
  });
});

test('packaging/vigil.service passes systemd-analyze verify without a warning', async (t) => {
  if (spawnSync('systemd-analyze', ['--version']).error)
    return t.skip('systemd-analyze is missing (Debian package systemd)');
  // verify checks that ExecStart exists: the unit's /opt/vigil becomes this checkout.
  const dir = tempDir('vigil-unit-');
  const unit = readFileSync(join(ROOT, 'packaging', 'vigil.service'), 'utf8');
  writeFileSync(join(dir, 'vigil.service'), unit.replaceAll('/opt/vigil', ROOT));
  // It exits 0 on unknown keys and bad values too, and only warns: any output is a failure.
  const v = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, 'vigil.service')], { encoding: 'utf8' });
  assert.equal(v.status, 0, v.stderr);
  // verify also loads the units ours names (multi-user.target and what it wants), so another package's unit
  // warns too (seen: graphite-carbon's carbon-cache.service, "StandardOutput=syslog is obsolete"): those
  // lines name their own file under /lib or /etc and are not ours to fix.
  const ours = (v.stderr + v.stdout).split('\n').filter((l) => l && !/^\/(lib|usr\/lib|etc)\/systemd\//.test(l));
  assert.deepEqual(ours, []);
  for (const line of [
    'DynamicUser=yes',
    'StateDirectory=vigil',
    'ProtectSystem=strict',
    'NoNewPrivileges=yes',
    'AmbientCapabilities=CAP_NET_BIND_SERVICE',
    'CapabilityBoundingSet=CAP_NET_BIND_SERVICE',
  ]) {
    assert.ok(unit.split('\n').includes(line), line);
  }
  assert.match(unit, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m, 'reload is the certificate reload (SIGHUP)');
});
