import { Command } from 'commander';
import { buildConfig } from '../config.ts';
import { dataOption, dbOption, dnssecKeyOption } from './options.ts';
import { adminEvent } from './admin-log.ts';

/**
 * `admin backup FILE` and `admin restore FILE`: the store (SQLite or
 * PostgreSQL), the TLS files and the DNSSEC key-encryption key in one
 * archive (src/store/archive.ts). Operator mistakes (no store, an existing
 * target, a key that does not open the store's keys) exit 1 with one line.
 */
export function backupCommands(): Command[] {
  const backup = new Command('backup')
    .description(
      'copy the store (online, while serve runs), DATA/tls/ and the DNSSEC key-encryption key into FILE, a .tar.gz made mode 0600',
    )
    .argument('<file>', 'the archive to write; must not exist')
    .addOption(dataOption())
    .addOption(dbOption())
    .addOption(dnssecKeyOption())
    .action((file: string, o) =>
      reported(async () => {
        const config = buildConfig({ dataDir: o.data, db: o.db || null, dnssecKeyFile: o.dnssecKeyFile });
        const { backupDataDir } = await import('../store/archive.ts');
        const r = await backupDataDir({ dataDir: config.dataDir, db: config.db, kekFile: config.dnssecKeyFile }, file);
        const tls = r.files.some((f) => f.startsWith('tls/'))
          ? ''
          : ' (no DATA/tls/: with --tls-cert/--tls-key, keep those files yourself)';
        process.stdout.write(`backed up ${config.dataDir} to ${r.file}: ${r.files.join(', ')}${tls}\n`);
        for (const note of r.notes) process.stderr.write(`vigil: ${note}\n`);
        await adminEvent('admin: backup', { data: config.dataDir, file: r.file, files: r.files });
      }),
    );
  const restore = new Command('restore')
    .description(
      'restore a backup FILE into a data directory (and, with --db, an empty PostgreSQL database) that has no store yet; then start serve on it',
    )
    .argument('<file>', 'an archive `admin backup` wrote')
    .requiredOption('--data <dir>', 'the data directory to restore into (must hold no store)')
    .addOption(dbOption())
    .addOption(dnssecKeyOption())
    .action((file: string, o) =>
      reported(async () => {
        const config = buildConfig({ dataDir: o.data, db: o.db || null, dnssecKeyFile: o.dnssecKeyFile });
        const { restoreDataDir } = await import('../store/archive.ts');
        const r = await restoreDataDir(file, {
          dataDir: config.dataDir,
          db: config.db,
          kekFile: config.dnssecKeyFile,
        });
        const flags = [
          `--data ${config.dataDir}`,
          ...(config.db ? ['--db URL'] : []),
          ...(o.dnssecKeyFile ? [`--dnssec-key-file ${config.dnssecKeyFile}`] : []),
        ];
        process.stdout.write(
          `restored ${r.file} into ${config.dataDir}: ${r.files.join(', ')}; start it with: vigil serve ${flags.join(' ')}\n`,
        );
        for (const note of r.notes) process.stderr.write(`vigil: ${note}\n`);
        await adminEvent('admin: restore', { data: config.dataDir, file: r.file, files: r.files });
      }),
    );
  return [backup, restore];
}

/** Typed operator mistakes become one line on stderr and exit 1; anything else is a fault and propagates. */
async function reported(work: () => Promise<void>): Promise<void> {
  const { BackupError } = await import('../store/backup.ts');
  const { NoStoreError } = await import('../store/open.ts');
  const { StoreError } = await import('../store/postgres.ts');
  try {
    await work();
  } catch (err) {
    if (!(err instanceof BackupError || err instanceof NoStoreError || err instanceof StoreError)) throw err;
    process.stderr.write(`vigil: ${err.message}\n`);
    process.exitCode = 1;
  }
}
