import assert from 'node:assert/strict';
import type { VigilClient } from '../../src/client/index.ts';
import { eventually } from './wait.ts';

/** Calls a script and returns the error code, or 'ok'; error replies hold only status and error. */
export async function code(
  c: VigilClient,
  script: string,
  fields: Record<string, string | undefined> = {},
): Promise<string> {
  const r = await c.post(script, { apikey: c.apikey, sessionToken: c.sessionToken, ...fields });
  assert.equal(r.http, 200);
  if (r.body.status === '0') return 'ok';
  assert.deepEqual(Object.keys(r.body).sort(), ['error', 'status']);
  return r.body.error;
}

export async function auditList(c: VigilClient): Promise<Record<string, string>[]> {
  return ((await c.call('saGetAuditList.php')).scans ?? []) as Record<string, string>[];
}

/** Starts an audit and returns its scanuid (the newest in the list). */
export async function runAudit(c: VigilClient, fields: Record<string, string>): Promise<string> {
  const before = new Set((await auditList(c)).map((s) => s.scanuid));
  assert.equal(await code(c, 'saRunAudit.php', fields), 'ok');
  const added = (await auditList(c)).filter((s) => !before.has(s.scanuid));
  assert.equal(added.length, 1);
  return added[0]!.scanuid!;
}

/** Waits until the audit is done or failed; returns its report. */
export async function finished(c: VigilClient, scanuid: string, timeoutMs = 120_000): Promise<any> {
  await eventually(
    async () => ['done', 'failed'].includes((await auditList(c)).find((s) => s.scanuid === scanuid)?.folder ?? ''),
    `audit ${scanuid} to end`,
    timeoutMs,
  );
  return (await c.call('saGetAuditReport.php', { scanuid })).scaninfo;
}

/** Every entry of a report, whatever its risk group. */
export const entriesOf = (info: any): any[] => Object.values(info.entries ?? {}).flatMap((g: any) => Object.values(g));

/** Field types of spec 2.3, checked one by one. */
export function assertReportShape(info: any): void {
  const basic = {
    detail_supplement: 'number',
    ejtime: 'string',
    hostip: 'string',
    merge: 'number',
    mergelist: 'string',
    promocode: 'string',
    qjtime: 'number',
    reporttype: 'string',
    scanattr: 'string',
    scanportstcp: 'string',
    scantype: 'string',
    scanuid: 'number',
    sjtime: 'number',
    title: 'string',
    totalnaslentries: 'number',
  };
  // Spec fields exactly, plus the extension fields of issue 15 (docs/audits.md: "say what ran") and of issue 26
  // (host discovery: "Host discovery and the range scan").
  const extension = {
    portsScanned: 'number',
    checksRun: 'number',
    nse: 'object',
    summary: 'string',
    discovery: 'boolean',
    hostsUp: 'number',
    hostsDown: 'number',
    hosts: 'object',
  };
  assert.deepEqual(Object.keys(info.basic).sort(), Object.keys({ ...basic, ...extension }).sort());
  for (const [k, t] of Object.entries({ ...basic, ...extension })) assert.equal(typeof info.basic[k], t, `basic.${k}`);
  const entry = {
    repid: 'string',
    id: 'string',
    shortid: 'string',
    ip: 'string',
    port: 'string',
    cat: 'string',
    cve: 'string',
    entrykey: 'string',
    risk: 'string',
    shortkey: 'number',
    static_description: 'string',
    description: 'string',
    title: 'string',
    type: 'string',
    baseline: 'string',
  };
  for (const [group, items] of Object.entries(info.entries ?? {})) {
    assert.ok(['high', 'medium', 'low', 'other'].includes(group), group);
    for (const [key, e] of Object.entries(items as Record<string, any>)) {
      assert.deepEqual(Object.keys(e).sort(), Object.keys(entry).sort());
      for (const [k, t] of Object.entries(entry)) assert.equal(typeof e[k], t, `entry.${k}`);
      assert.equal(key, e.entrykey);
      assert.equal(e.entrykey, `${info.basic.scanuid}_${e.shortkey}`);
      assert.equal(e.risk, group);
      assert.ok(['LOG', 'NOTE', 'HOLE'].includes(e.type));
    }
  }
  assert.ok(Array.isArray(info.ports));
  for (const p of info.ports) {
    assert.deepEqual(Object.keys(p).sort(), ['hostip', 'portend', 'portnum', 'portprot', 'portservice', 'repid']);
    assert.equal(typeof p.portend, 'number');
    assert.equal(typeof p.portnum, 'string');
    for (const k of ['repid', 'hostip', 'portprot', 'portservice']) assert.equal(typeof p[k], 'string');
  }
  // Counts are computed from the findings among the entries (docs/audits.md, "What counts as a finding"):
  // not the per-port detection entries, the resolved list nor a failed audit's note.
  const notFindings = ['vigil.service.detection', 'vigil.baseline.resolved', 'vigil.audit.failed'];
  const all = entriesOf(info).filter((e) => !notFindings.includes(e.id) && e.baseline !== 'resolved');
  for (const r of ['high', 'medium', 'low', 'other']) {
    const n = all.filter((e) => e.risk === r).length;
    assert.equal(info.risk[r] ?? 0, n, `risk.${r}`);
  }
  const grid: Record<string, number> = {};
  for (const e of all) grid[`${e.cat}:${e.risk}`] = (grid[`${e.cat}:${e.risk}`] ?? 0) + 1;
  assert.deepEqual(info.riskcatgrid, grid);
}
