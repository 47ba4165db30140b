import type { AccountRow } from '../accounts/accounts.ts';
import { fail } from '../errors.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { domainSummaryRows } from './zone-store/domains.ts';

/**
 * The DNS subscription: a credit total and an expiry. Reading and deleting
 * need a subscription that has not expired; whatever raises the account's
 * weight (a new domain, web forwarding) also needs the credits for it.
 */
export function requireSubscription(account: AccountRow, now: number): void {
  if (!hasSubscription(account, now)) fail('dnsEntitlementsOrCreditsMissing');
}

export function hasSubscription(account: AccountRow, now: number): boolean {
  return account.dns_credits != null && account.dns_expiry != null && Number(account.dns_expiry) > now;
}

export interface DomainSummary {
  seq: number;
  domain: string;
  state: number;
  weight: number;
  /** On operator hold (`admin domain release` lifts it). */
  hold: boolean;
  /** The serial being served under this name; null while none is. */
  servedSerial: number | null;
}

/** The account's domains with their credit weight: 2 with web forwarding, else 1. */
export async function domainSummaries(db: Kysely<Database>, accountId: number): Promise<DomainSummary[]> {
  const rows = await domainSummaryRows(db, accountId);
  return rows.map((r) => ({
    seq: r.seq,
    domain: r.domain,
    state: r.state,
    weight: Number(r.forwards) > 0 ? 2 : 1,
    hold: Number(r.on_hold) !== 0,
    servedSerial: r.served_serial === null ? null : Number(r.served_serial),
  }));
}

/** `YYYY-MM-DD HH:MM:SS UTC`, the readable form of every time Vigil shows. */
export function readableTime(ms: number): string {
  // The domain list formats the same two times (expiry, next cycle) on every call:
  // 11 µs of its ~235 in a profile under load (bench/reads.ts), a map lookup when kept.
  let text = readable.get(ms);
  if (text === undefined) {
    text = `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
    if (readable.size >= 256) readable.clear();
    readable.set(ms, text);
  }
  return text;
}
const readable = new Map<number, string>();

/** domaincount, domainweight, expiryjtime, expiryreadable (spec 2.4). */
export function accountFigures(account: AccountRow, domains: DomainSummary[]) {
  const expiry = Number(account.dns_expiry ?? 0);
  return {
    domaincount: domains.length,
    domainweight: domains.reduce((sum, d) => sum + d.weight, 0),
    expiryjtime: Math.floor(expiry / 1000),
    expiryreadable: readableTime(expiry),
  };
}
