import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
const d = new Database(mkdtempSync('/tmp/v-') + '/x.sqlite');
d.pragma('journal_mode = WAL');
d.exec('create table t(a)');
const stmts = {
  both: d.prepare('select total_changes() as t, data_version as d from pragma_data_version()'),
  total: d.prepare('select total_changes() as t'),
  dv: d.prepare('pragma data_version'),
  read: d.prepare('select count(*) from t'),
};
for (const [k, s] of Object.entries(stmts)) {
  const N = 200000; const t0 = performance.now();
  for (let i = 0; i < N; i++) s.get();
  console.log(k, ((performance.now() - t0) * 1000 / N).toFixed(2), 'µs');
}
