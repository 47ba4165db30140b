import { CONTRACTS, type ScriptName } from '../../api/contract/index.ts';
import type { Fields } from '../../client/index.ts';
import { ADDABLE, type AddableType, RECORD_TYPES } from '../../dns/records.ts';
import { usage } from './exit.ts';

/**
 * `dns add DOMAIN TYPE FIELD=VALUE…`: the TYPE picks the add script; the
 * FIELDs are that script's own form fields, as the record type declares
 * them (src/dns/rr/), so a new field or a new type there is one here.
 *
 * Each TYPE goes to its add script's own name. Two of them share a name
 * with other operations (spec note on 14, 18-20): dnsAddTXT.php without
 * `txtdata` sets the SOA or options or publishes, and dnsAddNS.php with
 * `flag`/`tag`/`value` but no `nameserver` adds a CAA record. Requiring
 * every required field before sending (txtdata for TXT, nameserver for
 * NS) is what keeps a forgotten field from turning an add into a publish.
 * CAA goes to dnsAddCAA.php, its own name, which Vigil serves.
 */
export type AddType = AddableType;
export const ADD_TYPES = ADDABLE.map((t) => t.type as AddType);

/**
 * Owner fields the spec calls "typically" or "normally blank" (MX `name`,
 * CAA and NS `subdomain`, TXT `name`: the apex) are blank when not given,
 * so `dns add example.org MX mxname=mail priority=10` works: the type's
 * form marks them (`blank`). Other fields are never guessed: a missing
 * `name` of an A record is a usage error, not silently the apex.
 */
const blankByDefault = (type: AddType) => RECORD_TYPES[type].add!.fields.find((f) => f.blank)?.name;

/** The TYPE as given, any case (`webforwarding` too). */
export function addTypeOf(text: string): AddType {
  const t = ADD_TYPES.find((k) => k.toLowerCase() === text.toLowerCase());
  if (!t) throw usage(`unknown record type '${text}': one of ${ADD_TYPES.join(', ')}`);
  return t;
}

/** The script and its form for `dns add`, or a usage error naming the fields the script takes. */
export function addCall(
  domain: string,
  type: AddType,
  pairs: readonly string[],
): { script: ScriptName; fields: Fields } {
  const script = RECORD_TYPES[type].add!.script as ScriptName;
  const blank = blankByDefault(type);
  return { script, fields: formFields(script, type, domain, pairs, blank ? { [blank]: '' } : {}) };
}

/**
 * FIELD=VALUE pairs checked against a script's own form fields (its contract
 * in src/api/contract/), `domain` given: for `dns add`, `dns soa` and
 * `dns options`. An unknown field is refused here, not dropped: the spec
 * scripts ignore one, and `ip=` for `ipaddr=` must not pass unseen.
 */
export function formFields(
  script: ScriptName,
  label: string,
  domain: string,
  pairs: readonly string[],
  defaults: Record<string, string> = {},
): Fields {
  const params: Record<string, { required: boolean }> = CONTRACTS[script].params;
  const own = Object.keys(params).filter((p) => p !== 'domain');
  const takes = `${label} takes ${own.map((p) => (params[p]!.required ? p : `[${p}]`)).join(' ')}`;
  const fields: Record<string, string> = { ...defaults };
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usage(`'${pair}': expected FIELD=VALUE (${takes})`);
    const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
    if (!own.includes(name)) throw usage(`${label} has no field '${name}' (${takes})`);
    fields[name] = value;
  }
  const missing = own.filter((p) => params[p]!.required && !(p in fields));
  if (missing.length) throw usage(`missing ${missing.map((m) => `${m}=`).join(' ')} (${takes})`);
  if (!pairs.length && !own.some((p) => params[p]!.required)) throw usage(`nothing to set (${takes})`);
  return { domain, ...fields };
}
