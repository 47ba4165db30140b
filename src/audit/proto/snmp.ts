/**
 * SNMPv2c messages (RFC 3416 PDUs in RFC 1157/1901 framing), BER by hand:
 * one varbind per message is all the checks send.
 */
import { readTlv } from './ldap.ts';

function len(n: number): Buffer {
  return n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
}
const tlv = (tag: number, ...body: Buffer[]) => {
  const b = Buffer.concat(body);
  return Buffer.concat([Buffer.from([tag]), len(b.length), b]);
};
const int = (n: number) => tlv(0x02, Buffer.from([(n >> 24) & 0x7f, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]));

function oidBytes(oid: number[]): Buffer {
  const out = [40 * oid[0]! + oid[1]!];
  for (const n of oid.slice(2)) {
    const parts = [n & 0x7f];
    for (let v = n >> 7; v; v >>= 7) parts.unshift((v & 0x7f) | 0x80);
    out.push(...parts);
  }
  return Buffer.from(out);
}

/** GetRequest (0xa0) with a NULL value, or SetRequest (0xa3) with an OCTET STRING. */
export function snmpMessage(
  community: string,
  pdu: 0xa0 | 0xa3,
  requestId: number,
  oid: number[],
  value: Buffer | null,
): Buffer {
  const varbind = tlv(0x30, tlv(0x06, oidBytes(oid)), value ? tlv(0x04, value) : Buffer.from([0x05, 0x00]));
  return tlv(
    0x30,
    int(1),
    tlv(0x04, Buffer.from(community)),
    tlv(pdu, int(requestId), int(0), int(0), tlv(0x30, varbind)),
  );
}

/** The Response PDU (0xa2) for `requestId`: its error-status and the first varbind's value. */
export function snmpValue(b: Buffer, requestId: number): { errorStatus: number; tag: number; raw: Buffer } | null {
  const msg = readTlv(b, 0);
  if (!msg || msg.tag !== 0x30) return null;
  const version = readTlv(b, msg.start);
  const community = version && readTlv(b, version.end);
  const pdu = community && readTlv(b, community.end);
  if (!pdu || pdu.tag !== 0xa2) return null;
  const id = readTlv(b, pdu.start);
  const status = id && readTlv(b, id.end);
  const index = status && readTlv(b, status.end);
  const list = index && readTlv(b, index.end);
  const vb = list && readTlv(b, list.start);
  const name = vb && readTlv(b, vb.start);
  const value = name && readTlv(b, name.end);
  if (!id || !status || !value || b.readUIntBE(id.start, Math.min(6, id.end - id.start)) !== requestId) return null;
  return { errorStatus: b[status.end - 1]!, tag: value.tag, raw: Buffer.from(b.subarray(value.start, value.end)) };
}

/** SNMPv2c GetRequest for sysDescr.0 (1.3.6.1.2.1.1.1.0) with community `public`: a fixed BER layout. */
export function snmpGet(community: string, requestId: number): Buffer {
  const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag, body.length]), body]);
  const int = (n: number) => tlv(0x02, Buffer.from([(n >> 24) & 0x7f, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]));
  const oid = tlv(0x06, Buffer.from([0x2b, 6, 1, 2, 1, 1, 1, 0]));
  const varbind = tlv(0x30, tlv(0x30, Buffer.concat([oid, Buffer.from([0x05, 0x00])])));
  const pdu = tlv(0xa0, Buffer.concat([int(requestId), int(0), int(0), varbind]));
  return tlv(0x30, Buffer.concat([int(1), tlv(0x04, Buffer.from(community)), pdu]));
}
