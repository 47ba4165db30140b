import type { AccountRow } from '../accounts/accounts.ts';
import { fail } from '../errors.ts';
import { DEFAULT_DNSKEY_TTL, dnskeyData, dsText, publicKey, type PublicKey } from './dnssec/index.ts';
import { keyStates, kskRoll } from './dnssec/keyring.ts';
import type { Domains, DomainRow } from './domains.ts';
import { presentName } from './text.ts';
import {
  deleteAllKeys,
  insertKey,
  keysForUpdate,
  keysOf,
  type KeyRow,
  resignSoon,
  retireKey,
  setDenial,
  setSigning,
} from './zone-store/dnssec-keys.ts';
import { generateKey } from './dnssec/keys.ts';
import { sealedRow, timesOf } from './sign-pass.ts';

/** dnsGetDNSSEC.php's reply (INTERFACE: `enabled`, `ds`, `dnskey`), with the keys' states as an extension. */
export interface DnssecStatus {
  enabled: boolean;
  /** Denial of existence by NSEC3 (RFC 9276: no salt, 0 extra iterations) rather than NSEC; kept while off. */
  nsec3: boolean;
  /** The DS records to give the parent, one per KSK in the DNSKEY set: `zone. 3600 IN DS tag alg 2 HEX`. */
  ds: string[];
  dnskey: string[];
  keys: {
    tag: number;
    role: 'ksk' | 'zsk';
    algorithm: number;
    signing: boolean;
    activeAt: number;
    retireAt: number | null;
    removeAt: number | null;
  }[];
}

const TTL = DEFAULT_DNSKEY_TTL;

const publicOf = (r: KeyRow): PublicKey => publicKey(r.role, r.algorithm, Buffer.from(r.public_key, 'base64'));

function dnskeyLine(zone: string, k: PublicKey): string {
  const d = dnskeyData(k);
  return `${presentName(zone)}. ${TTL} IN DNSKEY ${d.flags} 3 ${d.algorithm} ${d.key.toString('base64')}`;
}

/**
 * DNSSEC per domain (issue 19): the user's switch, what to give the parent,
 * and the KSK roll. A zone's first keys are made by the signer at the next
 * distribution cycle (src/dns/sign-pass.ts), which is also when a change
 * here reaches the name servers; a KSK roll makes its key here, sealed at
 * once with the key-encryption key every `serve` of a set shares.
 */
export class DnssecSettings {
  constructor(
    private readonly domains: Domains,
    /** src/dns/dnssec-kek.ts: may read the store, so it is called before a transaction starts. */
    private readonly kek: () => Buffer | Promise<Buffer>,
  ) {}

  async get(account: AccountRow, field: string | undefined): Promise<DnssecStatus> {
    return this.status(await this.domains.own(account, field));
  }

  /**
   * `enable` YES or NO; turning off drops the keys (docs/dnssec.md: remove the DS at the parent first).
   * `nsec3` YES or NO chooses the denial of existence; absent, the domain keeps its choice (NSEC at first).
   * Either change has the next cycle sign the zone anew.
   */
  async set(
    account: AccountRow,
    field: string | undefined,
    enable: string | undefined,
    nsec3?: string,
  ): Promise<DnssecStatus> {
    const on = enable === 'YES';
    const domain = await this.domains.db.transaction().execute(async (trx) => {
      const d = await this.domains.own(account, field, trx, true);
      if (enable !== 'YES' && enable !== 'NO')
        fail(enable === undefined || enable === '' ? 'missingInput' : 'syntaxInvalidEnable');
      if (nsec3 !== undefined && nsec3 !== 'YES' && nsec3 !== 'NO') fail('syntaxInvalidNsec3');
      if (d.type !== 'master') fail('dnssecMasterOnly');
      const wasNsec3 = Number(d.dnssec_nsec3) === 1;
      const denial = nsec3 === undefined ? wasNsec3 : nsec3 === 'YES';
      if ((Number(d.dnssec) === 1) !== on) {
        await setSigning(trx, d.id, on);
        if (!on) await deleteAllKeys(trx, d.id);
      }
      if (denial !== wasNsec3) await setDenial(trx, d.id, denial);
      return { ...d, dnssec: on ? 1 : 0, dnssec_nsec3: denial ? 1 : 0 };
    });
    return this.status(domain);
  }

  /** One step of a KSK roll (dnssec/keyring.ts, kskRoll): 'started' adds a KSK, 'finished' takes the old one out. */
  async rollKsk(
    account: AccountRow,
    field: string | undefined,
  ): Promise<DnssecStatus & { step: 'started' | 'finished' }> {
    const kek = await this.kek();
    const { domain, step } = await this.domains.db.transaction().execute(async (trx) => {
      const d = await this.domains.own(account, field, trx, true);
      if (Number(d.dnssec) !== 1) fail('dnssecNotEnabled');
      const rows = await keysForUpdate(trx, d.id);
      // Before the first cycle there are no keys yet: the first signing makes them.
      if (!rows.some((r) => r.role === 'ksk')) fail('dnssecNotEnabled');
      const now = this.domains.clock.now();
      const roll = kskRoll(timesOf(rows), now);
      if (roll.step === 'started') await insertKey(trx, sealedRow(d.id, d.name, generateKey('ksk'), kek, now, now));
      else for (const r of roll.retire) await retireKey(trx, r.id, r.retireAt, r.removeAt);
      await resignSoon(trx, d.id);
      return { domain: d, step: roll.step };
    });
    return { ...(await this.status(domain)), step };
  }

  /** The DS of the domain's KSKs in presentation form, for the records reply (empty until the first signing). */
  async ds(domain: DomainRow): Promise<string[]> {
    return (await this.status(domain)).ds;
  }

  private async status(domain: DomainRow): Promise<DnssecStatus> {
    const rows = Number(domain.dnssec) === 1 ? await keysOf(this.domains.db, domain.id) : [];
    const now = this.domains.clock.now();
    const live = new Map(keyStates(timesOf(rows), now).map((s) => [s.id, s.sign]));
    const published = rows.filter((r) => live.has(r.id));
    return {
      enabled: Number(domain.dnssec) === 1,
      nsec3: Number(domain.dnssec_nsec3) === 1,
      ds: published
        .filter((r) => r.role === 'ksk')
        .map((r) => `${presentName(domain.name)}. ${TTL} IN DS ${dsText(domain.name, publicOf(r))}`),
      dnskey: published.map((r) => dnskeyLine(domain.name, publicOf(r))),
      keys: published.map((r) => ({
        tag: r.tag,
        role: r.role,
        algorithm: r.algorithm,
        signing: live.get(r.id)!,
        activeAt: Number(r.active_at),
        retireAt: r.retire_at === null ? null : Number(r.retire_at),
        removeAt: r.remove_at === null ? null : Number(r.remove_at),
      })),
    };
  }
}
