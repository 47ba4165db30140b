/**
 * IKEv1 Aggressive Mode with a PSK on a real strongSwan charon (Debian
 * strongswan-charon), one charon for the file in a network namespace of
 * the test's own (test/helpers/charon.ts: no default route, the table is
 * printed), reached through a UDP relay from 127.0.215.x:500. WEAK answers
 * Aggressive Mode with its PSK (aggressive=yes and charon's
 * i_dont_care_about_security_and_use_aggressive_mode_psk); HARD is the same
 * charon's aggressive=no conn, which must stay silent.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { charonUnsupported, startIkeResponder } from '../../../../test/helpers/charon.ts';
import { onCleanup, stop, tempDir } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { askAggressive, EXCHANGE, PAYLOAD } from '../../proto/ike.ts';
import { checkById } from '../catalogue.ts';

const [WEAK, HARD] = ['127.0.215.1', '127.0.215.2'];
const why = charonUnsupported();

let started: Promise<string> | null = null;
/** The namespace, charon and the relay, once for the file; resolves to the namespace's routes. */
const responder = () =>
  (started ??= (async () => {
    const ns = `vgike${process.pid % 100000}`;
    const conns = [
      { address: WEAK, aggressive: true },
      { address: HARD, aggressive: false },
    ];
    const { routes, close } = await startIkeResponder({
      ns,
      dir: tempDir('charon'),
      conns,
      port: 500,
      spawn: (label, cmd, args, stdio) => {
        const p = spawn(cmd, args, { stdio, detached: true });
        onCleanup(() => stop(p));
        // Drained (nobody reads the starter's words); the relay's stdout is read by the relay itself.
        p.stderr?.resume();
        if (label === 'charon') p.stdout?.resume();
        return p;
      },
    });
    onCleanup(close);
    // charon is up once the relay carries an answer to an Aggressive Mode proposal (any answer).
    await eventually(
      async () => (await askAggressive(netFor(WEAK), 500, 14, 'probe@example.invalid')) !== null,
      'charon',
    );
    return routes;
  })());

const run = (id: string, address: string) => checkById(id).runOn(hostOf(address, []), netFor(address));

test('charon with aggressive=yes and a PSK: the Aggressive Mode reply (SA with PSK, HASH_R) is found; aggressive=no is silent', {
  skip: why ?? false,
}, async (t) => {
  t.diagnostic(`charon's namespace (no default route):\n${await responder()}`);
  const [f] = await run('vigil.ike.aggressive-mode-psk', WEAK);
  assert.match(
    f!.detail,
    /^An IKEv1 Aggressive Mode proposal \(MODP group (14|2), .*\) to UDP 500 was answered in Aggressive Mode with responder cookie [0-9a-f]{16}, the chosen transform \(AES-CBC-(256|128), SHA(2-256|1), PSK, group (14|2)\) and a (32|20)-byte HASH_R: /,
  );
  assert.deepEqual(await run('vigil.ike.aggressive-mode-psk', HARD), []);
});

test('the proto client: a weak reply carries SA, KE, nonce, ID and HASH in one Aggressive Mode datagram; the twin none of it', {
  skip: why ?? false,
}, async () => {
  await responder();
  const weak = await askAggressive(netFor(WEAK), 500, 2, 'someone@example.invalid');
  assert.equal(weak?.reply.exchange, EXCHANGE.AGGRESSIVE);
  for (const p of [PAYLOAD.SA, PAYLOAD.KE, PAYLOAD.NONCE, PAYLOAD.ID, PAYLOAD.HASH])
    assert.ok(weak!.reply.payloads.includes(p), `payload ${p} in ${weak!.reply.payloads}`);
  assert.equal(weak!.reply.chosen?.group, 2);
  const hard = await askAggressive(netFor(HARD), 500, 14, 'someone@example.invalid');
  assert.ok(!hard || !hard.reply.payloads.includes(PAYLOAD.HASH), JSON.stringify(hard?.reply));
});
