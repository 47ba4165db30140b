// Each due run starts exactly once, however many processes look
// (INTERFACE.md "Audits: ports and schedules"; issue 31): two `bin/vigil
// serve` and one `bin/vigil worker` on one store (the suite's PostgreSQL
// database under VIGIL_TEST_DB, else the data directory's SQLite file),
// each looking for due schedules every 50 ms, race for 25 schedules made
// due at the same moment, three times over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VigilClient } from '../src/client/index.ts';
import { buildConfig } from '../src/config.ts';
import { openStore } from '../src/store/open.ts';
import { testDb } from './helpers/pgdb.ts';
import { addAccount, serve, tempDir } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';
import { startWorker } from './helpers/workers.ts';

const PASSWORD = 'correct horse 31';
const SCHEDULES = 25;
const ROUNDS = 3;

/** The scanuids of the 'scheduled audit queued' lines a process logged (JSON lines on stderr). */
const started = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.includes('"msg":"scheduled audit queued"'))
    .map((l) => JSON.parse(l).scanuid as number);

test('two serves and a worker on one store: every due run started exactly once', async () => {
  const dataDir = tempDir();
  const env = { VIGIL_SCHEDULE_POLL: '50ms', VIGIL_LOG_LEVEL: 'info', VIGIL_LOG_FORMAT: 'json' };
  const limits = ['--audit-queue-limit', '1000', '--schedule-limit', '100'];
  const a = await serve({ dataDir, args: ['--audit-workers', '0', ...limits], env });
  const b = await serve({ dataDir, args: ['--audit-workers', '0', ...limits], env });
  const w = await startWorker(dataDir, ['--audit-workers', '4'], { ...env, VIGIL_AUDIT_QUEUE_LIMIT: '1000' });
  const db = await openStore(buildConfig({ dataDir, db: await testDb(dataDir) }), { create: false });
  try {
    const apikey = await addAccount(dataDir, 'once', PASSWORD, '--audit-types', 'basic', '--allow-ip', '127.0.31.49');
    const clients = [a, b].map((s) => new VigilClient({ baseUrl: s.httpsUrl, ca: s.ca }));
    for (const c of clients) await c.login(apikey, 'once', PASSWORD);
    // Made through either serve, as requests reach either process. One closed port: each run is quick.
    for (let i = 0; i < SCHEDULES; i++)
      await clients[i % 2]!.call('saScheduleAudit.php', {
        ipaddr: '127.0.31.49',
        audittype: 'basic',
        every: 'day',
        ports: '1',
      });
    for (let round = 1; round <= ROUNDS; round++) {
      // Every schedule due at once, as when the clock passes their time together.
      const due = Date.now() - 1000;
      await db.updateTable('audit_schedules').set({ next_run_at: due }).execute();
      await eventually(
        async () =>
          (await db.selectFrom('audit_schedules').select('id').where('next_run_at', '<=', Date.now()).execute())
            .length === 0,
        `round ${round}: every schedule's run started`,
      );
      const perSchedule = await db
        .selectFrom('audits')
        .select((eb) => ['schedule_id', eb.fn.countAll<number>().as('n')])
        .groupBy('schedule_id')
        .execute();
      assert.equal(perSchedule.length, SCHEDULES);
      for (const r of perSchedule) assert.equal(Number(r.n), round, `schedule ${r.schedule_id}: ${r.n} runs`);
      // The latest run of each is its lastscanuid.
      const rows = await db.selectFrom('audit_schedules').select(['id', 'last_audit_id']).execute();
      for (const s of rows) {
        const last = await db
          .selectFrom('audits')
          .select((eb) => eb.fn.max('id').as('id'))
          .where('schedule_id', '=', s.id)
          .executeTakeFirstOrThrow();
        assert.equal(Number(last.id), s.last_audit_id);
      }
    }
    // Every run was queued (none refused) and run by the worker.
    await eventually(
      async () =>
        (await db.selectFrom('audits').select('id').where('state', 'in', ['queued', 'running']).execute()).length === 0,
      'every run ended',
      60_000,
    );
    const states = await db
      .selectFrom('audits')
      .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    assert.deepEqual(
      states.map((s) => [s.state, Number(s.n)]),
      [['done', SCHEDULES * ROUNDS]],
    );
    for (const c of clients) c.close();
  } finally {
    await db.destroy();
    await w.stop();
    await a.stop();
    await b.stop();
  }
  // Who started what: the three processes' logs name each run once between them.
  const byProcess = [a.stderr(), b.stderr(), w.stderr()].map(started);
  const all = byProcess.flat();
  assert.equal(all.length, SCHEDULES * ROUNDS);
  assert.equal(new Set(all).size, all.length, 'no run logged twice');
  console.log(`runs started per process (serve A, serve B, worker): ${byProcess.map((x) => x.length).join(', ')}`);
});
