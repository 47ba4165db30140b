import type { Answer } from 'dns-packet';
import { dnskeyData, dnskeyRdata, dsData, type ZoneKey } from './keys.ts';
import dnsPacket from 'dns-packet';
import { WIRE } from '../rr/wire-names.ts';

/**
 * CDS and CDNSKEY (RFC 7344): the DS set the zone asks its parent for, so
 * a parent that scans for them (RFC 8078; several registries do) can
 * follow a KSK roll without the user copying a DS. Which KSKs to name is
 * the key manager's call (the new one once it signs; RFC 7344 4.1): the
 * caller passes them, and adds these records to the zone before signing,
 * where they are signed with the apex like any set. `deleteCds` asks the
 * parent to remove the DS before signing is turned off (RFC 8078 4).
 *
 * dns-packet knows the type numbers but has no codec for these two; their
 * RDATA is DS's and DNSKEY's (RFC 7344 3.1, 3.2), so dns-packet's DS and
 * DNSKEY codecs write it and the records carry it as raw RDATA.
 */
const dsCodec = (dnsPacket as unknown as { record(t: string): { encode(d: unknown): Buffer } }).record(WIRE.DS);

const raw = (type: 'CDS' | 'CDNSKEY', zone: string, ttl: number, data: Buffer): Answer =>
  ({ type, name: zone, ttl, class: 'IN', data }) as unknown as Answer;

export function cdsRecords(zone: string, ksks: readonly ZoneKey[], ttl: number): Answer[] {
  return ksks.flatMap((k) => [
    raw('CDS', zone, ttl, dsCodec.encode(dsData(zone, k)).subarray(2)),
    raw('CDNSKEY', zone, ttl, dnskeyRdata(dnskeyData(k))),
  ]);
}

/** RFC 8078 4: CDS `0 0 0 00` and CDNSKEY `0 3 0 AA==`: "remove my DS". */
export function deleteCds(zone: string, ttl: number): Answer[] {
  return [raw('CDS', zone, ttl, Buffer.from([0, 0, 0, 0, 0])), raw('CDNSKEY', zone, ttl, Buffer.from([0, 0, 3, 0, 0]))];
}
