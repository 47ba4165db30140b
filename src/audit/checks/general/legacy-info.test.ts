/**
 * Legacy information services on real Debian daemons: in.fingerd (run by
 * socat as inetd would) answering the list query vs in.fingerd -u, which
 * refuses it; oidentd naming the owner of a connection vs 'force hide'.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';

const ADDR = '127.0.71.8';
const FINGERD = which('in.fingerd');
const SOCAT = which('socat');
const FINGER = which('finger'); // in.fingerd runs the finger client for each query
const OIDENTD = which('oidentd');

const run = (id: string, port: number, name: string) =>
  checkById(id).runOn(hostOf(ADDR, [service(port, name)]), netFor(ADDR));

const fingerd = (args: string) =>
  daemon(ADDR, SOCAT!, (port) => [
    `TCP-LISTEN:${port},bind=${ADDR},fork,reuseaddr`,
    `EXEC:${FINGERD}${args ? ` ${args}` : ''}`,
  ]);

function oidentd(hide: boolean): Promise<number> {
  const dir = tempDir('oidentd');
  const conf = join(dir, 'oidentd.conf');
  writeFileSync(conf, `default {\n  default {\n    ${hide ? 'force hide' : 'deny spoof'}\n  }\n}\n`);
  return daemon(ADDR, OIDENTD!, (port) => ['-i', '-S', '-q', '-a', ADDR, '-p', String(port), '-C', conf]);
}

test('in.fingerd: the user list is found; in.fingerd -u (listing refused) is not', {
  skip: FINGERD && SOCAT && FINGER ? false : 'fingerd, finger or socat is not installed',
}, async () => {
  const [open, refusing] = await Promise.all([fingerd(''), fingerd('-u')]);
  const [f] = await run('vigil.finger.users', open, 'finger');
  assert.match(f!.detail, /list query .* was answered: "(No one logged on|Login)/);
  assert.deepEqual(await run('vigil.finger.users', refusing, 'finger'), []);
});

test("oidentd: USERID for the query's own connection is found; 'force hide' is not", {
  skip: OIDENTD ? false : 'oidentd is not installed',
}, async () => {
  const [open, hidden] = await Promise.all([oidentd(false), oidentd(true)]);
  const [f] = await run('vigil.ident.users', open, 'auth');
  assert.match(
    f!.detail,
    /^Asked "\d+, \d+" .* answered "\d+,\s*\d+\s*:\s*USERID\s*:\s*UNIX\s*:\s*\S+": the account \S+ owns it\.$/,
  );
  assert.deepEqual(await run('vigil.ident.users', hidden, 'auth'), []);
});
