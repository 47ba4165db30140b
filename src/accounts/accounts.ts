import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import {
  type AccountRow,
  accountByUserid,
  deleteSessionsOf,
  insertAccount,
  listAccountRows,
  updateAccountRow,
  useridTaken,
} from './account-store.ts';
import { AUDIT_TYPES, isAuditType } from '../audit/types.ts';
import { parsePatternList } from '../audit/patterns.ts';
import { hashPassword, newApikey, secretHash } from './secrets.ts';

export type { AccountRow };

/** What an operator can set on an account (INTERFACE.md `admin account`). */
export interface AccountSettings {
  password?: string;
  auditTypes?: string;
  allowIp?: string;
  dnsCredits?: number;
  /** Epoch ms; without it a new DNS subscription runs one year. */
  dnsExpiry?: number;
  email?: string;
  enabled?: boolean;
}

/** An operator mistake; the CLI prints the message and exits non-zero. */
export class AccountInputError extends Error {}

const YEAR_MS = 365 * 86_400_000;
const USERID = /^[A-Za-z0-9._@+-]{1,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function normalizeAuditTypes(text: string): string {
  if (text.trim() === 'all') return AUDIT_TYPES.join(',');
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((t) => !isAuditType(t));
  if (bad.length)
    throw new AccountInputError(`unknown audit type(s): ${bad.join(', ')} (use all or ${AUDIT_TYPES.join(',')})`);
  return [...new Set(items)].join(',');
}

function normalizeAllowIp(text: string): string {
  if (parsePatternList(text) === null) throw new AccountInputError(`invalid --allow-ip pattern list: ${text}`);
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(',');
}

/** Turns settings into column values, checking each. */
async function columns(s: AccountSettings, clock: Clock, current?: AccountRow): Promise<Partial<AccountRow>> {
  const out: Partial<AccountRow> = {};
  if (s.password !== undefined) {
    if (s.password.length < 8) throw new AccountInputError('password must be at least 8 characters');
    out.password_hash = await hashPassword(s.password);
  }
  if (s.auditTypes !== undefined) out.audit_types = normalizeAuditTypes(s.auditTypes);
  if (s.allowIp !== undefined) out.allow_ip = normalizeAllowIp(s.allowIp);
  if (s.email !== undefined) {
    if (!EMAIL.test(s.email)) throw new AccountInputError(`invalid e-mail address: ${s.email}`);
    out.email = s.email;
  }
  if (s.enabled !== undefined) out.enabled = s.enabled ? 1 : 0;
  if (s.dnsCredits !== undefined) {
    if (!Number.isInteger(s.dnsCredits) || s.dnsCredits < 0)
      throw new AccountInputError('--dns-credits must be a whole number >= 0');
    out.dns_credits = s.dnsCredits;
    if (s.dnsExpiry === undefined && current?.dns_expiry == null) out.dns_expiry = clock.now() + YEAR_MS;
  }
  if (s.dnsExpiry !== undefined) {
    if (s.dnsCredits === undefined && current?.dns_credits == null) {
      throw new AccountInputError('--dns-expiry needs a DNS subscription: give --dns-credits too');
    }
    out.dns_expiry = s.dnsExpiry;
  }
  return out;
}

export async function createAccount(
  db: Db,
  clock: Clock,
  userid: string,
  settings: AccountSettings,
): Promise<{ account: AccountRow; apikey: string }> {
  if (!USERID.test(userid)) throw new AccountInputError('userid: 1-64 characters of letters, digits and . _ @ + -');
  if (settings.password === undefined) throw new AccountInputError('a password is required');
  const values = await columns(settings, clock);
  const apikey = newApikey();
  return db.transaction().execute(async (trx) => {
    if (await useridTaken(trx, userid)) throw new AccountInputError(`account ${userid} already exists`);
    const account = await insertAccount(trx, {
      userid,
      password_hash: values.password_hash!,
      apikey_hash: secretHash(apikey),
      email: values.email ?? null,
      enabled: values.enabled ?? 1,
      audit_types: values.audit_types ?? '',
      allow_ip: values.allow_ip ?? '',
      dns_credits: values.dns_credits ?? null,
      dns_expiry: values.dns_expiry ?? null,
      created_at: clock.now(),
    });
    return { account, apikey };
  });
}

export async function findAccount(db: Db, userid: string): Promise<AccountRow> {
  const row = await accountByUserid(db, userid);
  if (!row) throw new AccountInputError(`no account ${userid}`);
  return row;
}

export async function updateAccount(
  db: Db,
  clock: Clock,
  userid: string,
  settings: AccountSettings,
): Promise<AccountRow> {
  const current = await findAccount(db, userid);
  const values = await columns(settings, clock, current);
  return db.transaction().execute(async (trx) => {
    const row = await updateAccountRow(trx, current.id, values);
    // A disabled account or a new password ends every session at once.
    if (settings.enabled === false || settings.password !== undefined) {
      await deleteSessionsOf(trx, current.id);
    }
    return row;
  });
}

/** A new API key; the old one and every token made with it stop working. */
export async function rotateApikey(db: Db, userid: string): Promise<string> {
  const current = await findAccount(db, userid);
  const apikey = newApikey();
  await db.transaction().execute(async (trx) => {
    await updateAccountRow(trx, current.id, { apikey_hash: secretHash(apikey) });
    await deleteSessionsOf(trx, current.id);
  });
  return apikey;
}

export async function listAccounts(db: Db): Promise<AccountRow[]> {
  return listAccountRows(db);
}

/** The operator's view of an account: never the hashes. */
export function describeAccount(a: AccountRow) {
  return {
    userid: a.userid,
    email: a.email,
    enabled: a.enabled === 1,
    auditTypes: a.audit_types ? a.audit_types.split(',') : [],
    allowIp: a.allow_ip ? a.allow_ip.split(',') : [],
    dnsCredits: a.dns_credits,
    dnsExpiry: a.dns_expiry == null ? null : new Date(Number(a.dns_expiry)).toISOString().slice(0, 10),
    created: new Date(Number(a.created_at)).toISOString(),
  };
}
