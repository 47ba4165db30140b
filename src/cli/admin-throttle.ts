import { Command } from 'commander';
import { type ThrottleEntry, LoginThrottle } from '../accounts/throttle.ts';
import { systemClock } from '../clock.ts';
import { buildConfig } from '../config.ts';
import { dataOption, dbOption } from './options.ts';
import { adminEvent } from './admin-log.ts';

/**
 * `bin/vigil admin throttle list|clear`: the operator's view of the login
 * throttle (docs/security.md, "Login throttling"). The store access stays in
 * src/accounts/throttle.ts, the one owner of the login_throttle table.
 */
async function withThrottle(o: Record<string, any>, work: (t: LoginThrottle) => Promise<void>): Promise<void> {
  const { openStore } = await import('../store/open.ts'); // only when a command runs, not for --help
  // Like every admin command, never creates a store (src/cli/with-store.ts).
  const db = await openStore(buildConfig({ dataDir: o.data, db: o.db ?? null }), { create: false });
  try {
    await work(new LoginThrottle(db, systemClock));
  } finally {
    await db.destroy();
  }
}

function describe(e: ThrottleEntry): string {
  const who =
    e.scope === 'pair'
      ? `${e.userid} from ${e.address}`
      : e.scope === 'user'
        ? `${e.userid} (all addresses)`
        : `${e.address} (all userids)`;
  const state = e.lockedUntil ? `locked ${e.retryAfterSeconds}s (until ${e.lockedUntil})` : 'not locked';
  return `${e.scope.padEnd(7)} ${who}: ${e.failures} failures, last ${e.lastFailure}, ${state}`;
}

export function throttleCommand(): Command {
  const throttle = new Command('throttle').description('login throttle: failed logins, locks and slow-downs');
  throttle
    .command('list')
    .description('show userids and addresses with failed logins, locked ones first')
    .addOption(dataOption())
    .addOption(dbOption())
    .option('--json', 'print JSON')
    .action((o) =>
      withThrottle(o, async (t) => {
        const entries = await t.list();
        process.stdout.write(
          o.json ? `${JSON.stringify(entries)}\n` : `${entries.map(describe).join('\n') || 'no failed logins'}\n`,
        );
      }),
    );
  throttle
    .command('clear')
    .description('forget failed logins (and so lift locks): of a userid, an address, the pair of both, or all')
    .addOption(dataOption())
    .addOption(dbOption())
    .option('--userid <userid>', "the userid's locks on every address and its own")
    .option('--address <ip>', "the address's locks for every userid and its own (IPv6: its /64)")
    .option('--all', 'every lock and count')
    .option('--json', 'print JSON')
    .action((o) => {
      if (!o.all && o.userid === undefined && o.address === undefined) {
        process.stderr.write('vigil: say what to clear: --userid U, --address A (both: that pair) or --all\n');
        process.exitCode = 1;
        return;
      }
      return withThrottle(o, async (t) => {
        const cleared = await t.clear({ userid: o.userid, address: o.address, all: o.all === true });
        process.stdout.write(
          o.json ? `${JSON.stringify({ cleared })}\n` : `cleared ${cleared} ${cleared === 1 ? 'entry' : 'entries'}\n`,
        );
        await adminEvent('admin: throttle cleared', {
          userid: o.userid,
          address: o.address,
          all: o.all === true,
          cleared,
        });
      });
    });
  return throttle;
}
