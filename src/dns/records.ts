import { A } from './types/a.ts';
import { AAAA } from './types/aaaa.ts';
import { CAA } from './types/caa.ts';
import { CNAME } from './types/cname.ts';
import { MX } from './types/mx.ts';
import { NS } from './types/ns.ts';
import { Options } from './types/options.ts';
import type { RecordType, RecordTypeName } from './types/shape.ts';
import { SOA } from './types/soa.ts';
import { SRV } from './types/srv.ts';
import { TXT } from './types/txt.ts';
import { WebForwarding } from './types/web-forwarding.ts';

export type { Fields, RecordType, RecordTypeName, StoredData } from './types/shape.ts';
export { defaultSoa, setSoa, soaLine, type SoaData } from './types/soa.ts';
export { setOptions, type OptionsData } from './types/options.ts';
export { srvOwner } from './types/srv.ts';

/**
 * THE record-type table. Each type lives in its own file under types/
 * with the same shape (RecordType); adding one is copying a file and
 * adding a line here.
 */
export const RECORD_TYPES: Readonly<Record<RecordTypeName, RecordType>> = Object.freeze({
  SOA,
  NS,
  MX,
  A,
  AAAA,
  CNAME,
  TXT,
  SRV,
  CAA,
  Options,
  WebForwarding,
});

/** Types that are service settings, not records of the zone text. */
export const NON_ZONE_TYPES: ReadonlySet<RecordTypeName> = new Set<RecordTypeName>(['Options', 'WebForwarding']);
