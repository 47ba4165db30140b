/**
 * The parsers behind `serve`'s options (serve.ts declares them): each turns a
 * flag's or environment variable's text into the configuration's value, or
 * throws the message commander prints (checked() in options.ts).
 */
import { Option } from 'commander';
import { parsePattern } from '../audit/patterns.ts';
import { ALLOW_DOMAINS, type AllowDomain, commaList } from '../config.ts';
import { parsePeer } from '../dns/peers.ts';
import { checked } from './options.ts';

export const opt = (flags: string, help: string, env: string, parse?: (t: string) => unknown, def?: string) => {
  const o = new Option(flags, help).env(env);
  if (parse) o.argParser(checked(parse));
  if (def !== undefined) o.default(parse ? parse(def) : def, def);
  return o;
};

export const cidrList = (t: string) => {
  const items = commaList(t);
  const bad = items.filter((c) => parsePattern(c) === null);
  if (bad.length) throw new Error(`not an address, CIDR or pattern: ${bad.join(', ')}`);
  return items;
};

export const count = (t: string) => {
  if (!/^([1-9]|[1-5]\d|6[0-4])$/.test(t)) throw new Error('must be 1 to 64');
  return Number(t);
};

export const allowDomains = (t: string): AllowDomain[] => {
  const items = commaList(t);
  const bad = items.filter((i) => !(ALLOW_DOMAINS as readonly string[]).includes(i));
  if (bad.length) throw new Error(`unknown: ${bad.join(', ')} (choose from ${ALLOW_DOMAINS.join(', ')})`);
  return items as AllowDomain[];
};

/** `--resolver ADDR[:PORT],…`: each entry a DNS peer (IPv6 with a port in brackets). */
export const resolverList = (t: string): string[] => {
  const items = commaList(t);
  const bad = items.filter((i) => parsePeer(i) === null);
  if (bad.length) throw new Error(`not ADDR[:PORT]: ${bad.join(', ')}`);
  return items;
};

/** `--metrics-zone-names`: alone or `yes` turns it on; `no` (the default) off. */
export const yesNo = (t: string) => {
  if (t !== 'yes' && t !== 'no') throw new Error("must be 'yes' or 'no'");
  return t === 'yes';
};

export const positive = (max: number) => (t: string) => {
  if (!/^[1-9]\d{0,9}$/.test(t) || Number(t) > max) throw new Error(`must be 1 to ${max}`);
  return Number(t);
};
