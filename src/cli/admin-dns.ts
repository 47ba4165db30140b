import { join } from 'node:path';
import { Command, Option } from 'commander';
import { AccountInputError } from '../accounts/accounts.ts';
import { systemClock } from '../clock.ts';
import { buildConfig, DEFAULTS } from '../config.ts';
import { dataOption, dbOption, dnssecKeyOption } from './options.ts';
import { withStore } from './with-store.ts';
import { adminEvent } from './admin-log.ts';
import { commandLogger } from '../log-format.ts';

/**
 * `admin domain release|list` and `admin distribute`: the operator's DNS
 * commands. The queries live with their tables' owners (src/dns/); the
 * DNS code loads only when a command runs (`--help` needs none of it).
 */
export function domainCommand(): Command {
  const domain = new Command('domain').description('domains');
  domain
    .command('release')
    .description('lift the hold on a newly added domain so that it can be published')
    .argument('<domain>', 'the domain name')
    .addOption(dataOption())
    .addOption(dbOption())
    .option('--force', "release even when the domain nests with another account's domain")
    .action((name: string, o) =>
      withStore(o, async (db) => {
        const { Domains } = await import('../dns/domains.ts');
        const domains = new Domains(db, systemClock, buildConfig({ dataDir: o.data }));
        const d = await domains.summary(name);
        if (!d) throw new AccountInputError(`no domain ${name}`);
        // Once published, a nested zone answers for (or hides) names of the other account.
        for (const n of d.nestedWith)
          process.stderr.write(
            `warning: ${d.name} (account ${d.userid}) nests with ${n.name} of account ${n.userid}\n`,
          );
        if (d.nestedWith.length && !o.force)
          throw new AccountInputError(
            `not released: ${d.name} nests with another account's domain; check it, then release with --force`,
          );
        await domains.release(d.name);
        process.stdout.write(`released ${d.name} (${d.type}, account ${d.userid})\n`);
        await adminEvent('admin: domain released', {
          domain: d.name,
          type: d.type,
          userid: d.userid,
          force: o.force === true,
          nestedWith: d.nestedWith.map((n) => n.name),
        });
      }),
    );
  domain
    .command('list')
    .description('every domain with its account, type, state, hold and served serial')
    .addOption(dataOption())
    .addOption(dbOption())
    .option('--held', 'only domains on hold (waiting for `admin domain release`)')
    .option('--json', 'print JSON')
    .action((o) =>
      withStore(o, async (db) => {
        const { Domains } = await import('../dns/domains.ts');
        const { stateText } = await import('../dns/states.ts');
        const rows = await new Domains(db, systemClock, buildConfig({ dataDir: o.data })).list({
          held: o.held === true,
        });
        if (o.json) {
          process.stdout.write(`${JSON.stringify(rows.map((r) => ({ ...r, stateText: stateText(r.state) })))}\n`);
          return;
        }
        const lines = rows.map((r) =>
          [
            r.domain,
            `account ${r.account}`,
            r.type,
            stateText(r.state),
            r.hold ? 'on hold' : 'released',
            `served ${r.servedSerial ?? '-'}`,
          ].join('  '),
        );
        process.stdout.write(`${lines.join('\n') || (o.held ? 'no domains on hold' : 'no domains')}\n`);
      }),
    );
  return domain;
}

export function distributeCommand(): Command {
  return new Command('distribute')
    .description('run one distribution cycle now; running servers serve its result within about a second')
    .addOption(dataOption())
    .addOption(dbOption())
    .addOption(dnssecKeyOption())
    .addOption(
      new Option(
        '--forward-address <ip>',
        "what web-forwarded hosts resolve to in signed zones: serve's --forward-address",
      ).env('VIGIL_FORWARD_ADDRESS'),
    )
    .option('--json', 'print JSON')
    .action((o) =>
      withStore(o, async (db) => {
        // The very function the server's timer runs; servers notice the change by their poll (src/dns/cycle-loop.ts).
        const { distributionCycle } = await import('../dns/distribute.ts');
        const { ZoneSigner } = await import('../dns/sign-pass.ts');
        const { KeyEncryptionKey } = await import('../dns/dnssec-kek.ts');
        // Signs as serve's cycle does: the same key file and forward address as the servers must be given.
        const signer = new ZoneSigner(db, systemClock, {
          // Never a new key while the store holds keys sealed with another (such a zone keeps its last signed version).
          kek: new KeyEncryptionKey(o.dnssecKeyFile ?? join(o.data, 'dnssec', 'kek'), db).get,
          forwardAddress: o.forwardAddress ?? DEFAULTS.listen,
          intervalMs: 0,
          // A zone whose signing fails keeps its last version; the operator must be told why, as serve's log would.
          logger: await commandLogger(),
        });
        const started = Date.now();
        const r = await distributionCycle(db, systemClock, signer);
        const ms = Date.now() - started;
        if (o.json) process.stdout.write(`${JSON.stringify({ ...r, ms })}\n`);
        else {
          const list = (zones: string[]) => (zones.length ? `: ${zones.join(', ')}` : '');
          process.stdout.write(
            `distributed ${r.distributed.length}${list(r.distributed)}; removed ${r.removed.length}${list(r.removed)} (${ms} ms)\n`,
          );
        }
        await adminEvent('admin: distribution cycle', {
          zones: r.distributed.length,
          removedZones: r.removed.length,
          distributed: r.distributed.slice(0, 20),
          removed: r.removed.slice(0, 20),
          ms,
        });
      }),
    );
}
