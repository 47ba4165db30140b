/**
 * Version control servers open to anonymous writes, on real daemons: git
 * daemon with --enable=receive-pack against the same daemon without it, and
 * svnserve with anon-access = write against anon-access = read (a
 * password-db for committers). Nothing is pushed or committed: the
 * repositories are checked unchanged after the checks ran.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { gitDaemonArgs, gitProject, svnRepo, svnserveArgs } from '../../../../test/helpers/ops-daemons.ts';
import { detectServices } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.183.31';
const TWIN = '127.0.183.32';
const GIT = which('git');
const SVNSERVE = which('svnserve');
const SVNADMIN = which('svnadmin');

const run = (id: string, address: string, port: number, name: string) =>
  checkById(id).runOn(hostOf(address, [service(port, name)]), netFor(address));

const gitDaemon = (address: string, base: string, push: boolean, port?: number) =>
  daemon(address, GIT!, (p) => gitDaemonArgs(address, p, base, push), port ? { port } : {});

test('git daemon --enable=receive-pack: the receive-pack advertisement is found, nothing pushed; without it: not found', {
  skip: GIT ? false : 'git is not installed',
}, async () => {
  const base = tempDir('git');
  const head = gitProject(GIT!, base);
  // The weak one on git's own port (the address is this file's), where detection probes for git.
  const [open, shut] = await Promise.all([gitDaemon(WEAK, base, true, 9418), gitDaemon(TWIN, base, false)]);
  const services = await detectServices(netFor(WEAK), [open], { bannerMs: 300 });
  assert.equal(services[0]!.name, 'git');
  const [f] = await checkById('vigil.git.anonymous-push').runOn(hostOf(WEAK, services), netFor(WEAK));
  assert.match(
    f!.detail,
    /^"git-receive-pack \/project.git" was answered with the reference advertisement .*: 1 ref\(s\) \(refs\/heads\/main\), capabilities "[^"]*report-status[^"]*"\. .*nothing was pushed\.$/,
  );
  assert.deepEqual(await run('vigil.git.anonymous-push', TWIN, shut, 'git'), []);
  assert.equal(
    execFileSync(GIT!, ['rev-parse', 'main'], { cwd: join(base, 'project.git'), encoding: 'utf8' }).trim(),
    head,
  );
});

const svnserve = (address: string, root: string) =>
  daemon(address, SVNSERVE!, (port) => svnserveArgs(address, port, root));

test('svnserve anon-access = write: an anonymous commit is granted (and aborted); anon-access = read: not found', {
  skip: SVNSERVE && SVNADMIN ? false : 'svnserve is not installed (subversion)',
}, async () => {
  const [weakRoot, twinRoot] = [tempDir('svn'), tempDir('svn')];
  svnRepo(SVNADMIN!, weakRoot, 'write');
  svnRepo(SVNADMIN!, twinRoot, 'read');
  const [open, shut] = await Promise.all([svnserve(WEAK, weakRoot), svnserve(TWIN, twinRoot)]);
  const services = await detectServices(netFor(WEAK), [open], { bannerMs: 1500 });
  assert.equal(services[0]!.name, 'svn');
  const [f] = await checkById('vigil.svn.anonymous-write').runOn(hostOf(WEAK, services), netFor(WEAK));
  assert.match(
    f!.detail,
    /^An anonymous session on svn:\/\/127\.0\.183\.31:\d+\/repo \(mechanisms offered: ANONYMOUS\b.*\) sent "commit": svnserve answered "\( success \( \( \) 0: \) \) .*granting the commit without credentials\./,
  );
  assert.deepEqual(await run('vigil.svn.anonymous-write', TWIN, shut, 'svn'), []);
  // Nothing was committed, and no transaction is left.
  const repo = join(weakRoot, 'repo');
  assert.equal(execFileSync(which('svnlook')!, ['youngest', repo], { encoding: 'utf8' }).trim(), '0');
  assert.equal(execFileSync(SVNADMIN!, ['lstxns', repo], { encoding: 'utf8' }).trim(), '');
});
