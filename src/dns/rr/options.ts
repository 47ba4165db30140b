import { fail, type SpecCode } from '../../errors.ts';
import { parseCidr, parseIP } from '../../ip.ts';
import { parsePeer } from '../peers.ts';
import type { Fields, RecordType, Stored } from './kit.ts';

export type OptionsData = Stored & {
  masters: string;
  allowtransferacl: string;
  notify: string;
  alsonotify: string;
};

const NOTIFY = ['', 'yes', 'no', 'explicit'];
/** A longer list is refused unread (a few hundred addresses fit). */
const MAX_LIST = 10_000;

/**
 * A comma list (spaces around items ignored), each item read into its
 * stored form (null: invalid); '' when blank or absent.
 */
function list(text: string | undefined, code: SpecCode, read: (item: string) => string | null): string {
  if (text === undefined || text.trim() === '') return '';
  if (text.length > MAX_LIST) fail(code);
  return text
    .split(',')
    .map((s) => read(s.trim().toLowerCase()) ?? fail(code))
    .join(',');
}

/**
 * Addresses are stored in RFC 5952 form (src/ip.ts): whatever later reads
 * them with ipaddr.js (the transfer ACL, the DNS egress fence) then sees
 * `::127.0.0.5` as the ::7f00:5 it is, never as mapped 127.0.0.5.
 */
const address = (text: string) => parseIP(text)?.toString() ?? null;

/** An ACL item: an address or `address/bits`. */
const aclItem = (item: string): string | null => {
  if (!item.includes('/')) return address(item);
  const cidr = parseCidr(item);
  return cidr && `${cidr[0].toString()}/${cidr[1]}`;
};

/** A peer: `ADDR`, `IPv4:PORT` or `[IPv6]:PORT` (port 53 when absent; an explicit port is kept). */
const peer = (item: string): string | null => {
  const p = parsePeer(item);
  const addr = p && address(p.address);
  if (addr === null) return null;
  const explicitPort = /^\[.*\]:\d+$/.test(item) || /^[\d.]+:\d+$/.test(item);
  return !explicitPort ? addr : addr.includes(':') ? `[${addr}]:${p!.port}` : `${addr}:${p!.port}`;
};

/**
 * Options set (BIND's meaning, ARCHITECTURE.md): `masters` peers, required
 * for slave domains, optional and unused for master domains;
 * `allowtransferacl` addresses or CIDRs; `notify` yes|no|explicit;
 * `alsonotify` peers, which need notify yes or explicit.
 */
export function setOptions(fields: Fields, domainType: 'master' | 'slave'): OptionsData {
  // Checked for every domain (a typo is better told than kept), used only by slave domains.
  const masters = list(fields.masters, 'syntaxInvalidMasters', peer);
  if (domainType === 'slave' && masters === '') fail('syntaxInvalidMasters');
  const allowtransferacl = list(fields.allowtransferacl, 'syntaxInvalidAllowtransferacl', aclItem);
  const notify = fields.notify ?? '';
  if (!NOTIFY.includes(notify)) fail('syntaxInvalidNotify');
  const alsonotify = list(fields.alsonotify, 'syntaxInvalidAlsoNotify', peer);
  if (alsonotify !== '' && notify !== 'yes' && notify !== 'explicit') fail('logicAlsoNotifyRequiresNotify');
  return { masters, allowtransferacl, notify, alsonotify };
}

/** Zone options are read back as records of type Options (spec 4.1, behaviour 4); set by dnsSetOptions. */
export const Options = {
  type: 'Options',
  role: 'setting',
  // Not added but set, by dnsSetOptions (its contract: src/api/contract/dns-domains.ts): the console's form.
  settings: {
    script: 'dnsSetOptions.php',
    fields: [
      {
        name: 'masters',
        kind: 'text',
        required: false,
        doc: 'slave domains: master addresses',
        label: 'Masters',
        hint: 'slave domains: master addresses, comma-separated',
      },
      { name: 'allowtransferacl', kind: 'text', required: false, doc: '', label: 'Allow transfer from' },
      { name: 'notify', kind: 'text', required: false, doc: '', label: 'Notify (yes, no, explicit)' },
      { name: 'alsonotify', kind: 'text', required: false, doc: '', label: 'Also notify' },
    ],
  },
  // Four comma lists of at most 10,000 characters each.
  bound: 41_000,
  display: 'transfer {allowtransferacl|-}; notify {notify|-}; also {alsonotify|-}',
  parse: () => fail('unspecifiedError'), // set by setOptions
  reply: (d) => ({
    allowtransferacl: d.allowtransferacl ?? '',
    notify: d.notify ?? '',
    alsonotify: d.alsonotify ?? '',
    masters: d.masters ?? '',
  }),
  owner: () => null,
} as const satisfies RecordType<OptionsData, 'Options'>;
