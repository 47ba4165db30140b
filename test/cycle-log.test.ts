import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { type Logger, pino } from 'pino';
import type { VigilClient } from '../src/client/index.ts';
import { CycleLoop } from '../src/dns/cycle-loop.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

const PASSWORD = 'quiet cycles 29';

/** A logger at `level` whose JSON lines the test reads. */
function capture(level: string) {
  const lines: any[] = [];
  const logger = pino(
    { level },
    new Writable({ write: (chunk, _e, cb) => (lines.push(JSON.parse(String(chunk))), cb()) }),
  );
  return { logger, lines };
}

/**
 * Issue 29: an idle distribution cycle (the common case, every interval,
 * all day) logs nothing at the default level; a cycle that changes what is
 * served logs one line with its facts. On the store under test (SQLite, or
 * PostgreSQL with VIGIL_TEST_DB).
 */
describe('distribution cycle logs: nothing when idle, one line for a change', () => {
  let t: TestApp;
  let c: VigilClient;

  before(async () => {
    t = await startTestApp({ domainHold: 'none' });
    c = t.client();
    await c.login(await t.account('quiet', PASSWORD, { dnsCredits: 2 }), 'quiet', PASSWORD);
  });
  after(() => t.close());

  /** A cycle loop on the app's store and clock (its timers never started), logging to `logger`. */
  const loop = (logger: Logger) =>
    new CycleLoop({ db: t.app.services.db, clock: t.clock, intervalMs: 300_000, logger, apply: async () => {} });

  test('a cycle with nothing to do logs nothing at info, and one line at debug', async () => {
    const info = capture('info');
    await loop(info.logger).cycle();
    assert.deepEqual(info.lines, []);
    const debug = capture('debug');
    await loop(debug.logger).cycle();
    assert.deepEqual(
      debug.lines.map((l) => [l.msg, l.zones]),
      [['distribution cycle', 0]],
    );
  });

  test('a cycle that serves a published version logs one line; the next, idle again, none', async () => {
    await c.call('dnsAddDomain.php', { domain: 'quiet.example', domaintype: 'master', aup: 'YES' });
    await c.call('dnsAddA.php', { domain: 'quiet.example', name: 'www', ip: '192.0.2.29' });
    const pub = await c.call('dnsPublish.php', { domain: 'quiet.example' });
    assert.equal(pub.errors, undefined);
    const { logger, lines } = capture('info');
    const cycles = loop(logger);
    await cycles.cycle();
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.equal(lines[0].msg, 'distribution cycle');
    assert.equal(lines[0].level, 30);
    assert.equal(lines[0].zones, 1);
    assert.deepEqual(lines[0].distributed, ['quiet.example']);
    await cycles.cycle();
    assert.equal(lines.length, 1, 'the second cycle had nothing to do');
  });
});
