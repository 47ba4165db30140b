import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { daemon, tempDir, which } from './helpers/daemons-kit.ts';
import { startOf } from './helpers/listeners.ts';
import { eventually } from './helpers/wait.ts';

/**
 * What a fixture's daemon leaves outside its process group is stopped with
 * the file: Erlang's `epmd -daemon` (its own session, reparented to init)
 * and a master that calls setsid() escape the group signal. Here a daemon of the
 * test's own (python3: a listener whose child makes itself a session
 * leader, as `epmd -daemon` does) leaves such a child; daemons-kit's
 * cleanup must have ended it before this file's own `after` runs (node:test
 * runs a file's `after` hooks in the order they were registered, and the
 * kit's comes first, at import).
 */
const escaped: { pid: number; start: string | null }[] = [];

after(() => {
  for (const e of escaped) assert.notEqual(startOf(e.pid), e.start, `the escaped pid ${e.pid} is still running`);
});

test("a process that left its daemon's group is stopped when the file ends", {
  skip: which('python3') ? false : 'python3 is not installed',
}, async () => {
  const dir = tempDir('kit');
  const script = [
    'import os, socket, sys, time',
    's = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)',
    "s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen()",
    'if os.fork() == 0:',
    '    os.setsid()',
    "    open(sys.argv[2], 'w').write(str(os.getpid()))",
    '    time.sleep(600)',
    '    sys.exit(0)',
    'time.sleep(600)',
  ].join('\n');
  const pidFile = join(dir, 'escaped.pid');
  await daemon('127.0.0.1', 'python3', (port) => ['-c', script, String(port), pidFile]);
  let pid = 0;
  await eventually(async () => (pid = Number(readFileSync(pidFile, 'utf8'))) > 0, 'the child wrote its pid');
  assert.notEqual(startOf(pid), null);
  escaped.push({ pid, start: startOf(pid) });
});
