import type { ScriptName } from './index.ts';

/**
 * Shared script names (spec note on 14, 18-20): the name's own operation
 * also serves these, told apart by the fields sent. Both names of each
 * operation are served. One rule, used by the server to choose and by the
 * typed client to post each operation where it lands.
 */
export const SHARED_NAMES = {
  'dnsAddNS.php': ['dnsAddCAA.php'],
  'dnsAddTXT.php': ['dnsSetSOA.php', 'dnsSetOptions.php', 'dnsPublish.php'],
} as const satisfies Partial<Record<ScriptName, readonly ScriptName[]>>;

export type SharedName = keyof typeof SHARED_NAMES;

/** The operation a shared name serves for a form with these fields. */
export function sharedOperation(name: SharedName, has: (field: string) => boolean): ScriptName {
  const any = (...fields: string[]) => fields.some(has);
  if (name === 'dnsAddNS.php')
    return !has('nameserver') && any('flag', 'tag', 'value') ? 'dnsAddCAA.php' : 'dnsAddNS.php';
  // A TXT add's own fields first: it may carry `ttl` (its record TTL) too. A
  // SOA set never sends `name`, so a TXT add that forgot `txtdata` is told
  // so, instead of silently setting the zone's TTL.
  return any('txtdata', 'name')
    ? 'dnsAddTXT.php'
    : any('admin', 'ttl')
      ? 'dnsSetSOA.php'
      : any('masters', 'allowtransferacl', 'notify', 'alsonotify')
        ? 'dnsSetOptions.php'
        : 'dnsPublish.php';
}
