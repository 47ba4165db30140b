import { Command } from 'commander';
import type { ScriptName } from '../../api/contract/index.ts';
import { act, userCommand } from './command.ts';
import { formFields } from './dns-add.ts';
import { usage } from './exit.ts';
import { printJson, printText } from './output.ts';
import { withSession } from './session.ts';

type Json = { json?: boolean };

// Typed as any script, as `dns add` does: the fields were checked against the contract by formFields.
const SOA: ScriptName = 'dnsSetSOA.php';
const OPTIONS: ScriptName = 'dnsSetOptions.php';

/**
 * The domain-wide settings of the spec (scripts 8, 18 and 19): the SOA's
 * admin mailbox and TTL, the options of a slave domain (masters, transfer
 * ACL, NOTIFY), and deleting a domain. The FIELDs are the scripts' own form
 * fields, checked against their contracts as `dns add` does, so a field the
 * API gains is one here. Like every setting, they are live at the next
 * publish.
 */
export function dnsSettingsCommands(): Command[] {
  const soa = userCommand('soa', "set a domain's SOA: admin=MAILBOX and/or ttl=SECONDS (dnsSetSOA.php)")
    .argument('<domain>')
    .argument('<field=value...>')
    .action(
      act(async (domain: string, pairs: string[], o: Json) => {
        const fields = formFields(SOA, 'soa', domain, pairs);
        const r = await withSession((s) => s.call(SOA, fields));
        if (o.json) printJson({ ...r, fields });
        else printText(`set the SOA of ${domain}; publish to make it live: vigil dns publish ${domain}`);
      }),
    );

  const options = userCommand(
    'options',
    "set a slave domain's options: masters=IP[;IP] [allowtransferacl=…] [notify=…] [alsonotify=…] (dnsSetOptions.php)",
  )
    .argument('<domain>')
    .argument('<field=value...>')
    .action(
      act(async (domain: string, pairs: string[], o: Json) => {
        const fields = formFields(OPTIONS, 'options', domain, pairs);
        const r = await withSession((s) => s.call(OPTIONS, fields));
        if (o.json) printJson({ ...r, fields });
        else printText(`set the options of ${domain}`);
      }),
    );

  const remove = userCommand('delete-domain', 'delete a domain and all its records (asks for --yes)')
    .argument('<domain>')
    .option('--yes', 'really delete it: the records are gone and the name servers stop answering for it')
    .action(
      act(async (domain: string, o: Json & { yes?: boolean }) => {
        // A typo in a script must not take a zone down: the deletion is the one call that needs saying twice.
        if (!o.yes) throw usage(`deleting ${domain} removes every record of it: add --yes`);
        const r = await withSession((s) => s.call('dnsDeleteDomain.php', { domain }));
        if (o.json) printJson({ ...r, domain });
        else printText(`deleted ${domain}; ${r.domaincount} domain(s) left, weight ${r.domainweight}`);
      }),
    );

  return [soa, options, remove];
}
