import { Command } from 'commander';
import { buildConfig } from '../config.ts';
import { dataOption, dbOption } from './options.ts';
import { adminEvent } from './admin-log.ts';

const PG_HINT =
  'the store is PostgreSQL (--db): back it up with pg_dump and restore with pg_restore, and copy DATA/tls/ beside it; see docs/operations.md, "Backup and restore"';

/**
 * `admin backup FILE` and `admin restore FILE`: the SQLite store and the
 * TLS files in one archive (src/store/archive.ts). Operator mistakes
 * (PostgreSQL, no store, an existing target) exit 1 with one line.
 */
export function backupCommands(): Command[] {
  const backup = new Command('backup')
    .description('copy the SQLite store (online, while serve runs) and DATA/tls/ into FILE, a .tar.gz made mode 0600')
    .argument('<file>', 'the archive to write; must not exist')
    .addOption(dataOption())
    .addOption(dbOption())
    .action((file: string, o) =>
      reported(async () => {
        const config = buildConfig({ dataDir: o.data, db: o.db ?? null });
        if (config.db) throw new (await import('../store/backup.ts')).BackupError(`not backed up: ${PG_HINT}`);
        const { backupDataDir } = await import('../store/archive.ts');
        const r = await backupDataDir(config.dataDir, file);
        const tls = r.files.some((f) => f.startsWith('tls/'))
          ? ''
          : ' (no DATA/tls/: with --tls-cert/--tls-key, keep those files yourself)';
        process.stdout.write(`backed up ${config.dataDir} to ${r.file}: ${r.files.join(', ')}${tls}\n`);
        await adminEvent('admin: backup', { data: config.dataDir, file: r.file, files: r.files });
      }),
    );
  const restore = new Command('restore')
    .description('restore a backup FILE into a data directory that has no store yet; then start serve on it')
    .argument('<file>', 'an archive `admin backup` wrote')
    .requiredOption('--data <dir>', 'the data directory to restore into (must hold no store)')
    .addOption(dbOption())
    .action((file: string, o) =>
      reported(async () => {
        if (o.db) throw new (await import('../store/backup.ts')).BackupError(`not restored: ${PG_HINT}`);
        const config = buildConfig({ dataDir: o.data });
        const { restoreDataDir } = await import('../store/archive.ts');
        const r = await restoreDataDir(file, config.dataDir);
        process.stdout.write(
          `restored ${r.file} into ${config.dataDir}: ${r.files.join(', ')}; start it with: vigil serve --data ${config.dataDir}\n`,
        );
        await adminEvent('admin: restore', { data: config.dataDir, file: r.file, files: r.files });
      }),
    );
  return [backup, restore];
}

/** Typed operator mistakes become one line on stderr and exit 1; anything else is a fault and propagates. */
async function reported(work: () => Promise<void>): Promise<void> {
  const { BackupError } = await import('../store/backup.ts');
  const { NoStoreError } = await import('../store/open.ts');
  try {
    await work();
  } catch (err) {
    if (!(err instanceof BackupError || err instanceof NoStoreError)) throw err;
    process.stderr.write(`vigil: ${err.message}\n`);
    process.exitCode = 1;
  }
}
