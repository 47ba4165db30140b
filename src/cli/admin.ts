import { Command, Option } from 'commander';
import {
  AccountInputError,
  type AccountSettings,
  createAccount,
  describeAccount,
  listAccounts,
  rotateApikey,
  updateAccount,
} from '../accounts/accounts.ts';
import { systemClock } from '../clock.ts';
import { checked, dataOption, dbOption } from './options.ts';
import { passwordOf } from './password.ts';
import { throttleCommand } from './admin-throttle.ts';
import { distributeCommand, domainCommand } from './admin-dns.ts';
import { withStore } from './with-store.ts';
import { backupCommands } from './admin-backup.ts';
import { storeCommand } from './admin-store.ts';
import { scheduleCommand } from './admin-schedule.ts';
import { adminEvent, changedSettings } from './admin-log.ts';

function parseDate(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) throw new Error('use YYYY-MM-DD');
  return ms;
}

function parseCount(text: string): number {
  if (!/^\d{1,9}$/.test(text)) throw new Error('must be a whole number');
  return Number(text);
}

/** The options `account add` and `account update` share. */
function withSettings(cmd: Command): Command {
  return cmd
    .addOption(dataOption())
    .addOption(dbOption())
    .requiredOption('--userid <userid>', 'the account')
    .option(
      '--password <password>',
      'login password (8+ characters); other users see it in ps: prefer --password-stdin',
    )
    .option(
      '--password-stdin',
      'read the password from the first line of standard input (a terminal asks, without echo)',
    )
    .option('--audit-types <list>', 'all | comma list of basic,standard,norisk,desktop,advanced')
    .option('--allow-ip <patterns>', "addresses this account may audit: 'CIDR-or-pattern,…'")
    .addOption(
      new Option('--dns-credits <n>', 'DNS subscription: number of domain credits').argParser(checked(parseCount)),
    )
    .addOption(
      new Option('--dns-expiry <date>', 'DNS subscription expiry, YYYY-MM-DD (default: one year)').argParser(
        checked(parseDate),
      ),
    )
    .option('--email <addr>', 'address for audit notifications')
    .option('--json', 'print JSON');
}

/** The settings given; the password from --password, --password-stdin or a prompt (src/cli/password.ts). */
async function settingsOf(o: Record<string, any>, passwordRequired: boolean): Promise<AccountSettings> {
  const s: AccountSettings = {};
  const password = await passwordOf(o, passwordRequired);
  if (password !== undefined) s.password = password;
  if (o.auditTypes !== undefined) s.auditTypes = o.auditTypes;
  if (o.allowIp !== undefined) s.allowIp = o.allowIp;
  if (o.dnsCredits !== undefined) s.dnsCredits = o.dnsCredits;
  if (o.dnsExpiry !== undefined) s.dnsExpiry = o.dnsExpiry;
  if (o.email !== undefined) s.email = o.email;
  if (o.disable) s.enabled = false;
  if (o.enable) s.enabled = true;
  return s;
}

const print = (json: boolean, value: object, text: string) =>
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);

function describeText(a: ReturnType<typeof describeAccount>): string {
  return [
    `${a.userid}${a.enabled ? '' : ' (disabled)'}`,
    `  email: ${a.email ?? '-'}`,
    `  audit types: ${a.auditTypes.join(',') || '-'}`,
    `  may audit: ${a.allowIp.join(',') || '-'}`,
    `  DNS: ${a.dnsCredits === null ? 'no subscription' : `${a.dnsCredits} credits until ${a.dnsExpiry}`}`,
  ].join('\n');
}

export function adminCommand(): Command {
  const admin = new Command('admin').description('operator commands; work while the server runs');
  const account = admin.command('account').description('accounts');

  withSettings(account.command('add').description('create an account and print its API key')).action((o) =>
    withStore(o, async (db) => {
      const settings = await settingsOf(o, true);
      const { account: row, apikey } = await createAccount(db, systemClock, o.userid, settings);
      const d = describeAccount(row);
      print(o.json, { ...d, apikey }, `${describeText(d)}\n  apikey: ${apikey}`);
      await adminEvent('admin: account added', {
        userid: d.userid,
        auditTypes: d.auditTypes,
        allowIp: d.allowIp,
        dnsCredits: d.dnsCredits,
        dnsExpiry: d.dnsExpiry,
        enabled: d.enabled,
      });
    }),
  );

  account
    .command('list')
    .description('list accounts')
    .addOption(dataOption())
    .addOption(dbOption())
    .option('--json', 'print JSON')
    .action((o) =>
      withStore(o, async (db) => {
        const rows = (await listAccounts(db)).map(describeAccount);
        print(o.json, rows, rows.map(describeText).join('\n') || 'no accounts');
      }),
    );

  withSettings(account.command('update').description('change an account'))
    .option('--disable', 'disable the account: no logins, its tokens stop working')
    .option('--enable', 'enable the account again')
    .action((o) =>
      withStore(o, async (db) => {
        if (o.disable && o.enable) throw new AccountInputError('--disable and --enable exclude each other');
        const settings = await settingsOf(o, false);
        const d = describeAccount(await updateAccount(db, systemClock, o.userid, settings));
        print(o.json, d, describeText(d));
        const msg = o.disable
          ? 'admin: account disabled'
          : o.enable
            ? 'admin: account enabled'
            : 'admin: account updated';
        await adminEvent(msg, { userid: d.userid, changed: changedSettings(settings), enabled: d.enabled });
      }),
    );

  admin
    .command('apikey')
    .description('API keys')
    .command('rotate')
    .description('give the account a new API key; the old key and its tokens stop working')
    .addOption(dataOption())
    .addOption(dbOption())
    .requiredOption('--userid <userid>', 'the account')
    .option('--json', 'print JSON')
    .action((o) =>
      withStore(o, async (db) => {
        const apikey = await rotateApikey(db, o.userid);
        print(o.json, { userid: o.userid, apikey }, `apikey: ${apikey}`);
        await adminEvent('admin: apikey rotated', { userid: o.userid });
      }),
    );
  admin.addCommand(domainCommand());
  admin.addCommand(distributeCommand());
  admin.addCommand(throttleCommand());
  for (const c of backupCommands()) admin.addCommand(c);
  admin.addCommand(storeCommand());
  admin.addCommand(scheduleCommand());
  return admin;
}
