import { ADDABLE, type AddableType, type Fields, RECORD_TYPES } from '../dns/records.ts';
import { accountFigures, domainSummaries, readableTime } from '../dns/subscription.ts';
import { stateText } from '../dns/states.ts';
import { sessionScript, type AliasScript, type Call, type SessionScript } from './call.ts';
import { sharedOperation, type ScriptName, type SharedName } from './contract/index.ts';
import type { Form } from './form.ts';

/** Form fields as a plain object (the auth fields are not the DNS layer's business). */
const fieldsOf = (form: Form): Fields => Object.fromEntries(form);

/** A DNS script: its contract (subscription, `domain` and the codes) and the domain call. */
const dnsCall = (
  name: ScriptName,
  run: (call: Call, fields: Fields) => Promise<Record<string, unknown> | void>,
): SessionScript => sessionScript(name, async (call) => (await run(call, fieldsOf(call.form))) ?? {});

/** A record add: the type's own script, its fields parsed by the type (src/dns/rr/). */
const addRecord = (type: AddableType): SessionScript => {
  const name = RECORD_TYPES[type].add!.script as ScriptName;
  // Spec 4 lists no `domain` for SRV; Vigil takes one when sent, else finds it from `host`.
  if (RECORD_TYPES[type].add!.domainOptional) {
    return dnsCall(name, async ({ account, services }, f) => {
      const domain = f.domain ?? (await services.dns.edits.srvDomain(account, f.host));
      await services.dns.edits.add(account, type, { ...f, domain });
    });
  }
  return dnsCall(name, ({ account, services }, f) => services.dns.edits.add(account, type, f));
};

/** Every add script, by its name, from the record table. */
const adds = Object.fromEntries(ADDABLE.map((t) => [t.add!.script, addRecord(t.type as AddableType)])) as Record<
  string,
  SessionScript
>;
const addOf = (name: ScriptName): SessionScript => adds[name]!;
const setSoa = dnsCall('dnsSetSOA.php', ({ account, services }, f) => services.dns.edits.setSoa(account, f));
// `masters` is "not marked optional" (spec 4.1), though only slave domains need it.
const setOptions = dnsCall('dnsSetOptions.php', ({ account, services }, f) =>
  services.dns.edits.setOptions(account, f),
);
const publish = dnsCall('dnsPublish.php', async ({ account, services }, f) => {
  const out = await services.dns.publisher.publish(account, f.domain);
  // Issue 30: the ERRORs the published zone shows join the warnings, a hint that never refuses (docs/dns.md).
  if (out.serial !== null) {
    const hint = await services.dns.health.publishHint(account, f.domain, out.hint).catch((err: unknown) => {
      services.logger.error({ err, domain: out.domain }, 'zone health: publish hint failed');
      return [];
    });
    if (hint.length) out.reply.warnings = [...(out.reply.warnings ?? []), ...hint];
  }
  const errors = out.reply.errors?.length ?? 0;
  services.logger.info(
    {
      userid: account.userid,
      domain: out.domain,
      serial: out.serial,
      outcome: errors ? 'errors' : 'ok',
      errors,
      warnings: out.reply.warnings?.length ?? 0,
    },
    'publish',
  );
  // Extension field (issue 18): when the version waiting now goes live. Only when one waits.
  return out.serial === null
    ? { ...out.reply }
    : { ...out.reply, nextDistribution: readableTime(services.dns.schedule.nextAt()) };
});

const shared = (name: SharedName, by: Partial<Record<ScriptName, SessionScript>>): AliasScript => ({
  alias: (form) => by[sharedOperation(name, (f) => form.has(f))]!,
  operations: Object.values(by),
});

/** DNS scripts (spec 5-21). Every one answers dnsEntitlementsOrCreditsMissing without a subscription. */
export const dnsScripts: Record<string, SessionScript | AliasScript> = {
  // The subscription is a prerequisite in the table (src/api/validate.ts checks it before `run`).
  'dnsGetDomainList.php': sessionScript('dnsGetDomainList.php', async ({ account, services }) => {
    const domains = await domainSummaries(services.db, account.id);
    const reply: Record<string, unknown> = accountFigures(account, domains);
    // Extension field (issue 18): the next cycle, when versions now waiting go live.
    reply.nextDistribution = readableTime(services.dns.schedule.nextAt());
    if (domains.length) {
      // `hold` is an extension field (issue 12, item 8): the spec shows a hold only as a
      // publish error, so a user could not tell why a domain stays in state 1.
      reply.domains = Object.fromEntries(
        domains.map((d) => [
          String(d.seq),
          // servedSerial (issue 18): the version the name servers answer with; null while not served.
          {
            domain: d.domain,
            seq: d.seq,
            weight: d.weight,
            state: d.state,
            stateText: stateText(d.state),
            hold: d.hold,
            servedSerial: d.servedSerial,
          },
        ]),
      );
    }
    return reply;
  }),
  'dnsGetDomainRecords.php': sessionScript('dnsGetDomainRecords.php', ({ account, services, form }) =>
    services.dns.edits.records(account, form.get('domain')),
  ),
  'dnsAddDomain.php': dnsCall('dnsAddDomain.php', ({ account, services }, f) => services.dns.domains.add(account, f)),
  'dnsDeleteDomain.php': dnsCall('dnsDeleteDomain.php', ({ account, services }, f) =>
    services.dns.domains.delete(account, f.domain),
  ),
  'dnsDeleteRecord.php': dnsCall('dnsDeleteRecord.php', ({ account, services }, f) =>
    services.dns.edits.deleteRecord(account, f.seq),
  ),
  ...adds,
  // Shared names (spec note on 14, 18-20): the operation by the fields sent (src/api/contract/shared.ts).
  'dnsAddTXT.php': shared('dnsAddTXT.php', {
    'dnsAddTXT.php': addOf('dnsAddTXT.php'),
    'dnsSetSOA.php': setSoa,
    'dnsSetOptions.php': setOptions,
    'dnsPublish.php': publish,
  }),
  'dnsAddNS.php': shared('dnsAddNS.php', {
    'dnsAddNS.php': addOf('dnsAddNS.php'),
    'dnsAddCAA.php': addOf('dnsAddCAA.php'),
  }),
  'dnsSetSOA.php': setSoa,
  'dnsSetOptions.php': setOptions,
  'dnsPublish.php': publish,
  'dnsBuildZone.php': dnsCall('dnsBuildZone.php', async ({ account, services }, f) => {
    const zone = await services.dns.publisher.buildZone(account, f.domain);
    const signed = (await services.dns.dnssec.get(account, f.domain)).enabled;
    return { zone, ...(signed ? { dnssec: 'signed at distribution: this is the zone before signing' } : {}) };
  }),
};
