// One table of the record add forms: each type's script and its fields as
// the spec names them (section 4). `ttl` is Vigil's optional per-record TTL.
export interface FieldSpec {
  name: string;
  label: string;
  hint?: string;
  optional?: boolean;
}

export interface RecordForm {
  type: string;
  script: string;
  fields: FieldSpec[];
  /** dnsAddSRV takes no domain in the spec; Vigil reads it from `domain` all the same. */
}

const TTL: FieldSpec = { name: 'ttl', label: 'TTL (seconds)', optional: true };
const NAME: FieldSpec = {
  name: 'name',
  label: 'Name',
  hint: 'blank for the domain itself, * for a wildcard',
  optional: true,
};

export const RECORD_FORMS: RecordForm[] = [
  { type: 'A', script: 'dnsAddA.php', fields: [NAME, { name: 'ip', label: 'IPv4 address' }, TTL] },
  { type: 'AAAA', script: 'dnsAddAAAA.php', fields: [NAME, { name: 'ip', label: 'IPv6 address' }, TTL] },
  {
    type: 'CNAME',
    script: 'dnsAddCNAME.php',
    fields: [{ name: 'alias', label: 'Alias' }, { name: 'name', label: 'Points to host' }, TTL],
  },
  {
    type: 'MX',
    script: 'dnsAddMX.php',
    fields: [
      { ...NAME, hint: 'usually blank' },
      { name: 'mxname', label: 'Mail server', hint: 'end with . if outside this domain' },
      { name: 'priority', label: 'Priority (0-99)' },
      TTL,
    ],
  },
  {
    type: 'TXT',
    script: 'dnsAddTXT.php',
    fields: [{ ...NAME, hint: 'blank for SPF' }, { name: 'txtdata', label: 'Text' }, TTL],
  },
  {
    type: 'CAA',
    script: 'dnsAddCAA.php',
    fields: [
      { name: 'subdomain', label: 'Subdomain', optional: true, hint: 'usually blank' },
      { name: 'flag', label: 'Flag (0-255)' },
      { name: 'tag', label: 'Tag (issue, issuewild, iodef)' },
      { name: 'value', label: 'Value' },
      TTL,
    ],
  },
  {
    type: 'NS',
    script: 'dnsAddNS.php',
    fields: [
      { name: 'subdomain', label: 'Subdomain', optional: true },
      { name: 'nameserver', label: 'Name server (fully qualified)' },
      TTL,
    ],
  },
  {
    type: 'SRV',
    script: 'dnsAddSRV.php',
    fields: [
      { name: 'srvc', label: 'Service', hint: 'e.g. _sip' },
      { name: 'prot', label: 'Protocol', hint: '_tcp or _udp' },
      { name: 'host', label: 'Host', optional: true },
      { name: 'pri', label: 'Priority' },
      { name: 'weight', label: 'Weight' },
      { name: 'port', label: 'Port' },
      { name: 'target', label: 'Target host' },
      TTL,
    ],
  },
  {
    type: 'Web forwarding',
    script: 'dnsAddWebForwarding.php',
    fields: [
      { name: 'host', label: 'Host', optional: true, hint: 'blank for the domain itself' },
      { name: 'target', label: 'Forward to URL' },
      { name: 'cloak', label: 'Cloak (1 keeps the address shown)', optional: true },
      TTL,
    ],
  },
  {
    // Zone options are read back as records of type Options (spec 4.1, behaviour 4).
    type: 'Options',
    script: 'dnsSetOptions.php',
    fields: [
      { name: 'masters', label: 'Masters', optional: true, hint: 'slave domains: master addresses, comma-separated' },
      { name: 'allowtransferacl', label: 'Allow transfer from', optional: true },
      { name: 'notify', label: 'Notify (yes, no, explicit)', optional: true },
      { name: 'alsonotify', label: 'Also notify', optional: true },
    ],
  },
];

/** A record's data as one line for the table. */
export function describe(type: string, d: Record<string, unknown>): string {
  const v = (k: string) => String(d[k] ?? '');
  switch (type) {
    case 'MX':
      return `${v('host') || '@'} → ${v('data')} (priority ${v('pri')})`;
    case 'CAA':
      return `${v('name') || '@'} ${v('flag')} ${v('tag')} "${v('caaval')}"`;
    case 'SOA':
      return `${v('priNS')} ${v('mail')} refresh ${v('refresh')} retry ${v('retry')} expire ${v('exp')} min ${v('min')}`;
    case 'SRV':
      return `${v('srvc')}.${v('prot')}.${v('host')} ${v('pri')} ${v('weight')} ${v('port')} ${v('target')}`;
    case 'Options':
      return `transfer ${v('allowtransferacl') || '-'}; notify ${v('notify') || '-'}; also ${v('alsonotify') || '-'}`;
    case 'WebForwarding':
      return `${v('host')} → ${v('target')}${Number(d.cloak) ? ' (cloaked)' : ''}`;
    default:
      return `${v('name') || '@'} → ${v('data')}`;
  }
}
