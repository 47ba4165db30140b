/**
 * The SSH checks on a third SSH product, tinysshd (Debian tinysshd), run
 * per connection by socat as inetd would: tinysshd has no weak setting to
 * plant (Ed25519 host keys, curve25519/sntrup761 key exchange,
 * chacha20-poly1305, public-key logins only, by design), so it is a
 * hardened twin only: every safe check that takes an SSH port must stay
 * silent (no HOLE or NOTE), and the server must really have answered.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { settle } from '../../engine/qod.ts';
import { CHECKS } from '../catalogue.ts';
import { talk } from '../../proto/talk.ts';

const TINYSSHD = which('tinysshd');
const SOCAT = which('socat');
const ADDR = '127.0.215.50';

test('tinysshd (keys only, modern algorithms by design): no SSH check raises a HOLE or NOTE', {
  skip: TINYSSHD && SOCAT ? false : 'tinysshd or socat is not installed (apt-get install tinysshd socat)',
}, async () => {
  const keys = join(tempDir('tinysshd'), 'keys');
  execFileSync('tinysshd-makekey', [keys], { stdio: 'ignore' });
  const port = await daemon(ADDR, SOCAT!, (p) => [
    `TCP-LISTEN:${p},bind=${ADDR},fork,reuseaddr`,
    `EXEC:${TINYSSHD} -l ${keys}`,
  ]);
  const net = netFor(ADDR);
  const banner = await talk(net, port, (c) => c.read(3000, (b) => b.includes(10)));
  assert.match(banner?.toString('latin1') ?? '', /^SSH-2\.0-tinyssh/);
  const found: string[] = [];
  for (const c of CHECKS.filter((c) => c.categories[0] === 'safe' && !c.ports.host))
    for (const f of await c.runOn(
      hostOf(ADDR, [service(port, 'ssh', { banner: banner!.toString('latin1').trim() })]),
      net,
    ))
      found.push(`${c.id} ${settle(c, f).type}: ${f.detail}`);
  assert.deepEqual(
    found.filter((f) => / (HOLE|NOTE): /.test(f)),
    [],
    found.join('\n'),
  );
});
