import { isIP } from 'node:net';
import { fail, type SpecCode } from '../../errors.ts';
import { parsePeer } from '../peers.ts';
import type { Fields, RecordType } from './shape.ts';

export interface OptionsData {
  masters: string;
  allowtransferacl: string;
  notify: string;
  alsonotify: string;
}

const NOTIFY = ['', 'yes', 'no', 'explicit'];
/** A longer list is refused unread (a few hundred addresses fit). */
const MAX_LIST = 10_000;

/** `address/bits` with a strict address (no `010.0.0.1`, no `0x0a…`) and bits within its family. */
function isCidr(text: string): boolean {
  const slash = text.indexOf('/');
  const family = isIP(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  return family !== 0 && /^(?:0|[1-9]\d{0,2})$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** A comma list (spaces around items ignored), each item checked; '' when blank or absent. */
function list(text: string | undefined, code: SpecCode, valid: (item: string) => boolean): string {
  if (text === undefined || text.trim() === '') return '';
  if (text.length > MAX_LIST) fail(code);
  const items = text.split(',').map((s) => s.trim().toLowerCase());
  return items.every(valid) ? items.join(',') : fail(code);
}

/** A peer: `ADDR`, `IPv4:PORT` or `[IPv6]:PORT` (port 53 when absent). */
const peer = (item: string) => parsePeer(item) !== null;

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
  const allowtransferacl = list(fields.allowtransferacl, 'syntaxInvalidAllowtransferacl', (i) => (i.includes('/') ? isCidr(i) : isIP(i) !== 0));
  const notify = fields.notify ?? '';
  if (!NOTIFY.includes(notify)) fail('syntaxInvalidNotify');
  const alsonotify = list(fields.alsonotify, 'syntaxInvalidAlsoNotify', peer);
  if (alsonotify !== '' && notify !== 'yes' && notify !== 'explicit') fail('logicAlsoNotifyRequiresNotify');
  return { masters, allowtransferacl, notify, alsonotify };
}

export const Options: RecordType = {
  type: 'Options',
  parse: () => fail('unspecifiedError'), // set by setOptions
  reply: (d) => ({ allowtransferacl: d.allowtransferacl ?? '', notify: d.notify ?? '', alsonotify: d.alsonotify ?? '', masters: d.masters ?? '' }),
  zoneLines: () => [], // server configuration, not zone data
  owner: () => null,
};
