import { readFileSync } from 'node:fs';
import { Argument, Command, Option } from 'commander';
import { act, userCommand } from './command.ts';
import { addCall, addTypeOf, ADD_TYPES } from './dns-add.ts';
import { dnsCheckCommand } from './dns-check.ts';
import { dnsSettingsCommands } from './dns-settings.ts';
import { CliError, EXIT, usage } from './exit.ts';
import { note, printJson, printText, table } from './output.ts';
import { withSession } from './session.ts';

type Json = { json?: boolean };

/** A record's `data` as `key=value` pairs, in the order the API sends them. */
const dataText = (data: Record<string, unknown>) =>
  Object.entries(data ?? {})
    .map(([k, v]) => `${k}=${typeof v === 'string' && (v === '' || /\s/.test(v)) ? JSON.stringify(v) : String(v)}`)
    .join(' ');

/**
 * Publish and import answer `warnings` and `errors` (lists of sentences)
 * with status 0: printed on stderr in text mode, and errors make the exit
 * EXIT.failed, since the domain was not published (or nothing imported).
 */
function outcome(reply: Record<string, any>, o: Json, done: string, notDone: string): void {
  const warnings: string[] = reply.warnings ?? [];
  const errors: string[] = reply.errors ?? [];
  if (o.json) printJson(reply);
  else {
    for (const w of warnings) note(`warning: ${w}`);
    for (const e of errors) note(`error: ${e}`);
    if (!errors.length) printText(done);
  }
  if (errors.length)
    throw new CliError(EXIT.failed, `${errors.length} error${errors.length > 1 ? 's' : ''}: ${notDone}`);
}

function fileText(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    throw usage(`cannot read ${file} (${(err as NodeJS.ErrnoException).code})`);
  }
}

export function dnsCommand(): Command {
  const dns = new Command('dns').description('DNS hosting as the logged-in user (vigil login first)');

  dns.addCommand(
    userCommand('list', 'your domains and the subscription').action(
      act(async (o: Json) => {
        const r = await withSession((s) => s.call('dnsGetDomainList.php', {}));
        if (o.json) return printJson(r);
        const domains = Object.values((r.domains ?? {}) as Record<string, any>);
        printText(
          `${r.domaincount} domain(s), weight ${r.domainweight}; subscription until ${r.expiryreadable}` +
            (domains.length
              ? `\n\n${table(domains, [
                  ['SEQ', (d) => d.seq],
                  ['DOMAIN', (d) => d.domain],
                  ['STATE', (d) => `${d.state} ${d.stateText}${d.hold ? ' (on hold)' : ''}`],
                  ['WEIGHT', (d) => d.weight],
                  ['SERVED SERIAL', (d) => d.servedSerial],
                ])}`
              : ''),
        );
      }),
    ),
  );

  dns.addCommand(
    userCommand('records', "a domain's records (SEQ is what delete-record takes)")
      .argument('<domain>')
      .action(
        act(async (domain: string, o: Json) => {
          const r = await withSession((s) => s.call('dnsGetDomainRecords.php', { domain }));
          if (o.json) return printJson(r);
          const records = Object.values((r.records ?? {}) as Record<string, any>);
          printText(
            `${r.domain}: ${r.state} ${r.stateText}\n\n${table(records, [
              ['SEQ', (x) => x.seq],
              ['TYPE', (x) => x.type],
              ['DATA', (x) => dataText(x.data)],
            ])}`,
          );
        }),
      ),
  );

  dns.addCommand(
    userCommand('add-domain', 'add a domain; this accepts the acceptable-use policy for it (aup=YES)')
      .argument('<domain>')
      .addOption(new Option('--type <type>', 'master or slave').choices(['master', 'slave']).default('master'))
      .action(
        act(async (domain: string, o: Json & { type: 'master' | 'slave' }) => {
          const r = await withSession((s) => s.call('dnsAddDomain.php', { domain, domaintype: o.type, aup: 'YES' }));
          if (o.json) printJson({ ...r, domain });
          else
            printText(
              `added ${domain} (${o.type}); publish it when its records are ready: vigil dns publish ${domain}`,
            );
        }),
      ),
  );

  dns.addCommand(
    userCommand('add', `add a record: TYPE is one of ${ADD_TYPES.join(', ')}; FIELDs are the add script's form fields`)
      .argument('<domain>')
      .argument('<type>')
      .argument('<field=value...>')
      .action(
        act(async (domain: string, typeText: string, pairs: string[], o: Json) => {
          const type = addTypeOf(typeText);
          const { script, fields } = addCall(domain, type, pairs);
          const r = await withSession((s) => s.call(script, fields));
          if (o.json) printJson({ ...r, script, fields });
          else printText(`added ${type} to ${domain}; publish to make it live: vigil dns publish ${domain}`);
        }),
      ),
  );

  dns.addCommand(
    userCommand('delete-record', 'delete a record by its SEQ (from dns records)')
      .argument('<seq>')
      .action(
        act(async (seq: string, o: Json) => {
          const r = await withSession((s) => s.call('dnsDeleteRecord.php', { seq }));
          if (o.json) printJson({ ...r, seq });
          else printText(`deleted record ${seq}`);
        }),
      ),
  );

  dns.addCommand(
    userCommand('publish', 'validate the domain and queue it for the name servers; warnings and errors on stderr')
      .argument('<domain>')
      .action(
        act(async (domain: string, o: Json) => {
          const r = await withSession((s) => s.call('dnsPublish.php', { domain }));
          outcome(
            r,
            o,
            `published ${domain}${r.nextDistribution ? `; live from ${r.nextDistribution}` : ''}`,
            `${domain} not published`,
          );
        }),
      ),
  );

  dns.addCommand(
    userCommand('zone', 'the zone text a publish now would serve, unpublished changes included')
      .argument('<domain>')
      .action(
        act(async (domain: string, o: Json) => {
          const r = await withSession((s) => s.call('dnsBuildZone.php', { domain }));
          if (o.json) printJson(r);
          else printText(r.zone);
        }),
      ),
  );

  dns.addCommand(
    userCommand('import', 'import master-file records into a domain: all of them or none (FILE - reads stdin)')
      .argument('<domain>')
      .argument('<file>')
      .action(
        act(async (domain: string, file: string, o: Json) => {
          const zone = fileText(file);
          const r = await withSession((s) => s.call('dnsImportZone.php', { domain, zone }));
          outcome(
            r,
            o,
            `imported ${r.imported} record(s) into ${domain}; publish to make them live: vigil dns publish ${domain}`,
            'nothing imported',
          );
        }),
      ),
  );

  dns.addCommand(
    userCommand(
      'dnssec',
      'DNSSEC of a domain: show it, or turn signing on or off, or take a step of a KSK roll (docs/dnssec.md)',
    )
      .argument('<domain>')
      .addArgument(new Argument('[action]', 'on | off | roll; none: show').choices(['on', 'off', 'roll']))
      .addOption(
        new Option('--nsec3', 'with on: NSEC3, no salt, 0 extra iterations (the zone cannot be walked)').conflicts(
          'nsec',
        ),
      )
      .option('--nsec', "with on: NSEC (a new domain's choice; smaller answers). Neither: the choice stays")
      .action(
        act(async (domain: string, action: string | undefined, o: Json & { nsec3?: boolean; nsec?: boolean }) => {
          // Neither flag: the domain keeps its choice (dnsSetDNSSEC.php without `nsec3`).
          const nsec3 = o.nsec3 ? 'YES' : o.nsec ? 'NO' : undefined;
          if (nsec3 && action !== 'on')
            throw usage('--nsec3 and --nsec go with on: vigil dns dnssec DOMAIN on --nsec3');
          const r = await withSession((s) =>
            action === 'roll'
              ? s.call('dnsRollDNSSECKey.php', { domain })
              : action
                ? s.call('dnsSetDNSSEC.php', { domain, enable: action === 'on' ? 'YES' : 'NO', nsec3 })
                : s.call('dnsGetDNSSEC.php', { domain }),
          );
          if (o.json) return printJson(r);
          const denial = r.enabled ? `, ${r.nsec3 ? 'NSEC3' : 'NSEC'}` : '';
          printText(
            `${domain}: signing ${r.enabled ? 'on' : 'off'}${denial}${'step' in r ? `; KSK roll ${r.step}` : ''}`,
          );
          if (r.enabled && !r.ds.length)
            printText('keys are made at the next distribution; then give the parent the DS shown here');
          for (const line of r.ds) printText(line);
          if (r.keys.length)
            printText(
              `\n${table(r.keys as { tag: number; role: string; signing: boolean }[], [
                ['TAG', (k) => k.tag],
                ['ROLE', (k) => k.role],
                ['SIGNING', (k) => (k.signing ? 'yes' : 'no (published only)')],
              ])}`,
            );
        }),
      ),
  );

  dns.addCommand(dnsCheckCommand());
  for (const c of dnsSettingsCommands()) dns.addCommand(c);

  return dns;
}
