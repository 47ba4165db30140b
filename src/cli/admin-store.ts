import { Command } from 'commander';
import { buildConfig } from '../config.ts';
import { dataOption } from './options.ts';
import { adminEvent } from './admin-log.ts';

/** The URL as it may be printed and logged: never its password. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * `admin store copy --to postgres://…`: the data directory's SQLite store
 * into an empty PostgreSQL database (src/store/copy.ts), the way off one
 * machine. The source is always the data directory's file, so no --db
 * (and VIGIL_DB is not read): the target is named by --to alone.
 */
export function storeCommand(): Command {
  const store = new Command('store').description('the store as a whole');
  store
    .command('copy')
    .description(
      "copy every account, domain, record, publication and audit of the data directory's SQLite store into an empty PostgreSQL database; stop serve first",
    )
    .requiredOption(
      '--to <url>',
      'postgres://USER[:PASS]@HOST[:PORT]/DB of an empty database (migrations run on it first)',
    )
    .addOption(dataOption())
    .option('--json', 'print JSON')
    .action(async (o) => {
      const { openStore, NoStoreError } = await import('../store/open.ts');
      const { openPostgres, isPostgresUrl, StoreError } = await import('../store/postgres.ts');
      const { copyStore, CopyError } = await import('../store/copy.ts');
      const { sealedKeys } = await import('../dns/zone-store/dnssec-keys.ts');
      const config = buildConfig({ dataDir: o.data, db: null });
      try {
        if (!isPostgresUrl(o.to))
          throw new CopyError('copyTargetNotPostgres', `--to must be a postgres:// URL, not '${shown(o.to)}'`);
        const source = await openStore(config, { create: false });
        try {
          const target = await openPostgres(o.to);
          try {
            const copied = await copyStore(source, target);
            const to = shown(o.to);
            const rows = Object.fromEntries(copied.map((t) => [t.table, t.rows]));
            // The copy's DNSSEC keys are sealed with a key that is a file, not a row (docs/scaling.md): a serve
            // on another host without it refuses to start (kekMissing), so the operator hears it here first.
            const kek = (await sealedKeys(source)).length ? config.dnssecKeyFile : null;
            const text = `copied ${config.dataDir} to ${to}, counts checked: ${copied.map((t) => `${t.table} ${t.rows}`).join(', ')}\nstart serve with: vigil serve --db ${to === o.to ? to : '<that URL>'} (copy DATA/tls/ too, or give --tls-cert/--tls-key)${kek ? `\nthe signed zones' DNSSEC keys are sealed with ${kek} (or the file serve was given with --dnssec-key-file): give every serve of the copy that file (--dnssec-key-file), or it refuses to start` : ''}`;
            const json = { from: config.dataDir, to, rows, ...(kek ? { dnssecKeyFile: kek } : {}) };
            process.stdout.write(o.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
            await adminEvent('admin: store copied', { data: config.dataDir, to, rows });
          } finally {
            await target.destroy();
          }
        } finally {
          await source.destroy();
        }
      } catch (err) {
        if (!(err instanceof CopyError || err instanceof NoStoreError || err instanceof StoreError)) throw err;
        process.stderr.write(`vigil: not copied: ${err.message}\n`);
        process.exitCode = 1;
      }
    });
  return store;
}
