import type { KeyRole } from './keys.ts';

/**
 * When each of a zone's keys is published, signs and goes (RFC 7583's
 * timelines), as pure functions over the key rows and the time, so tests
 * move an injected clock through a whole roll. src/dns/sign-pass.ts applies
 * what `plan` says before each signing; docs/dnssec.md, "Keys", explains.
 *
 * A key is in the DNSKEY set from `createdAt` until `removeAt` and signs from
 * `activeAt` until `retireAt` (null: not scheduled).
 */
export interface KeyTimes {
  readonly id: number;
  readonly role: KeyRole;
  readonly createdAt: number;
  readonly activeAt: number;
  readonly retireAt: number | null;
  readonly removeAt: number | null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface KeyPolicy {
  /** How long a ZSK signs before its successor takes over (Knot's zsk-lifetime default). */
  readonly zskLifetime: number;
  /**
   * From a change of the zone to every secondary and cache that matters
   * having it: one distribution interval (given at run time) plus this
   * margin for a secondary that missed the NOTIFY and waits for its retry.
   */
  readonly propagation: number;
  /** TTL of the DNSKEY set (src/dns/dnssec/zone.ts, DEFAULT_DNSKEY_TTL). */
  readonly dnskeyTtl: number;
}

export const DEFAULT_POLICY: KeyPolicy = { zskLifetime: 30 * DAY, propagation: HOUR, dnskeyTtl: HOUR };

/** What `plan` asks the store to do. */
export interface KeyPlan {
  /** New keys: created (published) now, signing from activeAt. */
  readonly create: { role: KeyRole; activeAt: number }[];
  /** Keys given their end: they stop signing at retireAt and leave the DNSKEY set at removeAt. */
  readonly retire: { id: number; retireAt: number; removeAt: number }[];
  /** Keys past removeAt. */
  readonly remove: number[];
}

const signing = (k: KeyTimes, now: number) => k.activeAt <= now && (k.retireAt === null || now < k.retireAt);
const published = (k: KeyTimes, now: number) => k.createdAt <= now && (k.removeAt === null || now < k.removeAt);

/** Whether each key is in the DNSKEY set and whether it signs, at `now`. */
export function keyStates(keys: readonly KeyTimes[], now: number): { id: number; sign: boolean }[] {
  return keys.filter((k) => published(k, now)).map((k) => ({ id: k.id, sign: signing(k, now) }));
}

/**
 * The next moment the DNSKEY set or the signing keys change by themselves
 * (a ZSK's successor due, a key activating, retiring or leaving): the
 * zone is signed again then, whatever its signatures' refresh says.
 */
export function nextKeyEvent(
  keys: readonly KeyTimes[],
  now: number,
  policy: KeyPolicy = DEFAULT_POLICY,
  intervalMs = 0,
): number {
  let next = Infinity;
  for (const k of keys)
    for (const t of [k.activeAt, k.retireAt, k.removeAt]) if (t !== null && t > now) next = Math.min(next, t);
  const due = successorDue(keys, now, policy, intervalMs);
  if (due !== null && due > now) next = Math.min(next, due);
  return next;
}

/**
 * Pre-publication needs the new key in caches before it signs: propagation plus the DNSKEY TTL (RFC 7583
 * 3.3.1, Ipub).
 */
const publishLead = (policy: KeyPolicy, intervalMs: number) => intervalMs + policy.propagation + policy.dnskeyTtl;

/**
 * The ZSK that signs now and has no successor yet, with when its successor must be published; null when there
 * is nothing to do.
 */
function successorDue(keys: readonly KeyTimes[], now: number, policy: KeyPolicy, intervalMs: number): number | null {
  const zsks = keys.filter((k) => k.role === 'zsk' && k.removeAt === null);
  const current = zsks.filter((k) => signing(k, now) && k.retireAt === null).sort((a, b) => b.activeAt - a.activeAt)[0];
  if (!current || zsks.some((k) => k.activeAt > current.activeAt)) return null;
  return current.activeAt + policy.zskLifetime - publishLead(policy, intervalMs);
}

/**
 * The key changes due at `now` for a zone to be signed:
 *
 * - no KSK or no ZSK (signing just turned on): one of each, active at once
 *   (the zone was unsigned, so no cache holds an old DNSKEY set to wait for);
 * - a ZSK near the end of its lifetime: its successor is published now and
 *   signs after the publish lead (RFC 6781 4.1.1.1, pre-publication);
 * - a successor that signs: the old ZSK retires at that moment and leaves
 *   the DNSKEY set once its signatures have expired from caches
 *   (propagation plus the zone's largest TTL, RFC 7583 3.3.1, Iret);
 * - keys past their removal: deleted.
 *
 * `maxTtl` is the zone's largest record TTL in ms.
 */
export function plan(
  keys: readonly KeyTimes[],
  now: number,
  maxTtl: number,
  policy: KeyPolicy = DEFAULT_POLICY,
  intervalMs = 0,
): KeyPlan {
  const out: KeyPlan = { create: [], retire: [], remove: [] };
  const live = keys.filter((k) => k.removeAt === null || now < k.removeAt);
  out.remove.push(...keys.filter((k) => !live.includes(k)).map((k) => k.id));
  for (const role of ['ksk', 'zsk'] as const) {
    if (!live.some((k) => k.role === role && (k.retireAt === null || now < k.retireAt)))
      out.create.push({ role, activeAt: now });
  }
  const due = successorDue(live, now, policy, intervalMs);
  if (due !== null && due <= now) {
    const current = live
      .filter((k) => k.role === 'zsk' && signing(k, now) && k.retireAt === null)
      .sort((a, b) => b.activeAt - a.activeAt)[0]!;
    out.create.push({
      role: 'zsk',
      activeAt: Math.max(now + publishLead(policy, intervalMs), current.activeAt + policy.zskLifetime),
    });
  }
  // A ZSK whose successor signs: retire it then.
  const zsks = live.filter((k) => k.role === 'zsk').sort((a, b) => a.activeAt - b.activeAt);
  for (let i = 0; i + 1 < zsks.length; i++) {
    const old = zsks[i]!;
    const next = zsks[i + 1]!;
    if (old.retireAt === null && next.activeAt <= now)
      out.retire.push({
        id: old.id,
        retireAt: next.activeAt,
        removeAt: next.activeAt + intervalMs + policy.propagation + maxTtl,
      });
  }
  return out;
}

/**
 * A KSK roll on command (double signature, RFC 6781 4.1.2): the first call
 * adds a KSK that signs the DNSKEY set beside the old one, so the zone
 * validates with either DS at the parent; the user then gives the parent
 * the new DS. The second call, once the parent serves only the new DS and
 * its TTL has passed, takes the old KSK out. 'started' or 'finished'.
 */
export function kskRoll(
  keys: readonly KeyTimes[],
  now: number,
):
  | { step: 'started'; create: { role: 'ksk'; activeAt: number } }
  | { step: 'finished'; retire: { id: number; retireAt: number; removeAt: number }[] } {
  const ksks = keys
    .filter((k) => k.role === 'ksk' && signing(k, now))
    .sort((a, b) => a.activeAt - b.activeAt || a.id - b.id);
  if (ksks.length < 2) return { step: 'started', create: { role: 'ksk', activeAt: now } };
  return { step: 'finished', retire: ksks.slice(0, -1).map((k) => ({ id: k.id, retireAt: now, removeAt: now })) };
}
