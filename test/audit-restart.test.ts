import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildConfig } from '../src/config.ts';
import { openStore } from '../src/store/open.ts';
import { testDb } from './helpers/pgdb.ts';
import { addAccount, serve } from './helpers/server.ts';
import { dataDirWithStore } from './helpers/store.ts';
import { auditList, finished, runAudit } from './helpers/audits.ts';
import { closeAll, listenOnFirst, tarpit } from './helpers/targets.ts';
import { eventually } from './helpers/wait.ts';
import { QUICK_PROBES } from './helpers/workers.ts';

const PASSWORD = 'correct horse 7';
const TARGET = '127.0.0.8';

test('an audit cut off by a kill -9 is resumed after the restart and finishes', async () => {
  // A port that accepts and never speaks keeps the audit in `running` for a while.
  const pit = tarpit();
  const port = await listenOnFirst(pit, TARGET, [5901, 5902, 5903]);
  const dataDir = await dataDirWithStore();
  const key = await addAccount(dataDir, 'restart', PASSWORD, '--audit-types', 'desktop', '--allow-ip', TARGET);
  // On PostgreSQL the killed process's audit comes back when its lease runs out: 3 s, not the
  // 30 s default, which cost this test 30 s there (SQLite sees at once that the pid is gone).
  const env = { VIGIL_AUDIT_LEASE: '3s' };
  let s = await serve({ dataDir, env });
  try {
    let c = s.client();
    await c.login(key, 'restart', PASSWORD);
    const scanuid = await runAudit(c, { ipaddr: TARGET, audittype: 'desktop' });
    await eventually(
      async () => (await auditList(c)).find((a) => a.scanuid === scanuid)?.folder === 'running',
      'running',
    );
    await s.stop('SIGKILL');
    s = await serve({ dataDir, env: { ...env, ...QUICK_PROBES } });
    c = s.client();
    await c.login(key, 'restart', PASSWORD);
    const info = await finished(c, scanuid);
    assert.equal(info.basic.reporttype, 'complete');
    assert.ok(
      info.ports.some((p: any) => p.portend === port),
      'the tarpit port was found',
    );
    assert.equal((await auditList(c)).length, 1, 'resumed, not duplicated');
  } finally {
    await s.stop();
    await closeAll([pit]);
  }
});

test('SIGTERM during an audit puts it back in the queue; an audit cut off three times fails with a reason', async () => {
  const pit = tarpit();
  await listenOnFirst(pit, TARGET, [5904, 5905, 5906]);
  const dataDir = await dataDirWithStore();
  const key = await addAccount(dataDir, 'restart2', PASSWORD, '--audit-types', 'desktop', '--allow-ip', TARGET);
  let s = await serve({ dataDir });
  try {
    let c = s.client();
    await c.login(key, 'restart2', PASSWORD);
    const scanuid = await runAudit(c, { ipaddr: TARGET, audittype: 'desktop' });
    await eventually(
      async () => (await auditList(c)).find((a) => a.scanuid === scanuid)?.folder === 'running',
      'running',
    );
    assert.equal(await s.stop('SIGTERM'), 0);
    // Stopped cleanly: back in the queue, the attempt not counted.
    const db = await openStore(buildConfig({ dataDir, db: await testDb(dataDir) }));
    const row = await db
      .selectFrom('audits')
      .select(['state', 'attempts'])
      .where('id', '=', Number(scanuid))
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { state: 'queued', attempts: 0 });
    // As if three earlier runs had each been killed mid-way.
    await db.updateTable('audits').set({ state: 'running', attempts: 3 }).where('id', '=', Number(scanuid)).execute();
    await db.destroy();
    s = await serve({ dataDir });
    c = s.client();
    await c.login(key, 'restart2', PASSWORD);
    const info = await finished(c, scanuid);
    assert.equal(info.basic.reporttype, 'failed');
    assert.equal((await auditList(c))[0]!.folder, 'failed');
    assert.match(Object.values(info.entries.other as Record<string, any>)[0].description, /Reason: interrupted/);
  } finally {
    await s.stop();
    await closeAll([pit]);
  }
});
