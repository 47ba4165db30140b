import { A } from './a.ts';
import { AAAA } from './aaaa.ts';
import { CNAME } from './cname.ts';
import { DS } from './ds.ts';
import { MX } from './mx.ts';
import { NS } from './ns.ts';
import { PTR } from './ptr.ts';
import { SOA } from './soa.ts';
import { TXT } from './txt.ts';

/**
 * The wire names (dns-packet's) that protocol code asks for by name:
 * queries, transfers, NOTIFY, referrals, the signer, the scanner's DNS
 * probes. The record types say their own; DNSSEC's records and the query
 * types, which no user adds, are spelled here, once.
 */
export const WIRE = {
  A: A.wire.type,
  AAAA: AAAA.wire.type,
  CNAME: CNAME.wire.type,
  DS: DS.wire.type,
  MX: MX.wire.type,
  NS: NS.wire.type,
  PTR: PTR.wire.type,
  SOA: SOA.wire.type,
  TXT: TXT.wire.type,
  DNSKEY: 'DNSKEY',
  RRSIG: 'RRSIG',
  NSEC: 'NSEC',
  NSEC3: 'NSEC3',
  NSEC3PARAM: 'NSEC3PARAM',
  CDS: 'CDS',
  CDNSKEY: 'CDNSKEY',
  ANY: 'ANY',
  AXFR: 'AXFR',
  IXFR: 'IXFR',
  OPT: 'OPT',
} as const;
