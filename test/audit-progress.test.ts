import assert from 'node:assert/strict';
import { test } from 'node:test';
import { portsFor } from '../src/audit/engine/ports.ts';
import { checksFor } from '../src/audit/engine/profiles.ts';
import { startTestApp } from './helpers/app.ts';
import { auditList, finished, runAudit } from './helpers/audits.ts';
import { closeAll, listenOnFirst, tarpit } from './helpers/targets.ts';
import { eventually } from './helpers/wait.ts';
import { startWorker } from './helpers/workers.ts';

// The progress contract (saGetAuditList `scans[].progress` while queued or
// running), with the audit run by a `vigil worker` process: the list is
// read by the serve, so progress must travel through the store. SQLite and
// PostgreSQL (VIGIL_TEST_DB: pg-boss).
const PASSWORD = 'correct horse 16';
const TARGET = '127.0.0.58';

test('queued: totals and nothing done; running in a worker process: phase and counts move on; ended: no progress', async () => {
  // A port that accepts and never speaks keeps detection busy for seconds.
  const pit = tarpit();
  await listenOnFirst(pit, TARGET, [5901, 5902, 5903]);
  const t = await startTestApp({ auditWorkers: 0 });
  let w: Awaited<ReturnType<typeof startWorker>> | null = null;
  try {
    const c = t.client();
    await c.login(
      await t.account('progress', PASSWORD, { auditTypes: 'desktop', allowIp: '127.0.0.58-59' }),
      'progress',
      PASSWORD,
    );
    const scanuid = await runAudit(c, { ipaddr: '127.0.0.58-59', audittype: 'desktop' });
    const entry = async () => (await auditList(c)).find((s) => s.scanuid === scanuid) as any;
    const totals = { portsTotal: portsFor('desktop').length * 2, checksTotal: checksFor('desktop', false).length * 2 };
    assert.deepEqual((await entry()).progress, { phase: 'queued', portsScanned: 0, checksDone: 0, ...totals });
    assert.equal(typeof (await entry()).folder, 'string', 'spec fields unchanged');

    w = await startWorker(t.app.services.config.dataDir, ['--audit-workers', '1']);
    const seen: any[] = [];
    await eventually(
      async () => {
        const e = await entry();
        if (e.folder === 'running') seen.push(e.progress);
        return e.folder === 'done' || seen.some((p) => p.portsScanned === totals.portsTotal && p.phase !== 'scanning');
      },
      `progress past the port scan; worker: ${w.stderr()}`,
      60_000,
    );
    const running = seen.filter(Boolean);
    assert.ok(running.length > 0, 'progress shown while running');
    for (const p of running) {
      assert.deepEqual(Object.keys(p).sort(), ['checksDone', 'checksTotal', 'phase', 'portsScanned', 'portsTotal']);
      assert.ok(['scanning', 'detecting', 'checking', 'reporting'].includes(p.phase), p.phase);
      assert.equal(p.portsTotal, totals.portsTotal);
      assert.equal(p.checksTotal, totals.checksTotal);
      assert.ok(p.portsScanned <= p.portsTotal && p.checksDone <= p.checksTotal);
    }
    // Counts never go back (phase order: scanning < detecting < checking < reporting).
    const order = ['scanning', 'detecting', 'checking', 'reporting'];
    for (let i = 1; i < running.length; i++) {
      assert.ok(order.indexOf(running[i].phase) >= order.indexOf(running[i - 1].phase));
      assert.ok(
        running[i].portsScanned >= running[i - 1].portsScanned && running[i].checksDone >= running[i - 1].checksDone,
      );
    }
    assert.ok(
      running.some((p) => p.portsScanned === totals.portsTotal && p.phase !== 'scanning'),
      JSON.stringify(running),
    );
    const info = await finished(c, scanuid);
    assert.equal(info.basic.reporttype, 'complete');
    assert.equal('progress' in (await entry()), false, 'an ended audit shows no progress');
  } finally {
    await w?.stop();
    await t.close();
    await closeAll([pit]);
  }
});
