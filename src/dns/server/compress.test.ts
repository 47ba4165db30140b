import assert from 'node:assert/strict';
import { test } from 'node:test';
import dnsPacket, { type Answer, type Packet } from 'dns-packet';
import { compressMessage } from './compress.ts';

const Z = 'example.org';
const reply = (answers: Answer[], authorities: Answer[] = [], additionals: Answer[] = []): Packet => ({
  id: 7,
  type: 'response',
  flags: dnsPacket.AUTHORITATIVE_ANSWER,
  questions: [{ name: `www.${Z}`, type: 'A', class: 'IN' }],
  answers,
  authorities,
  additionals,
});
const soa = {
  name: Z,
  type: 'SOA',
  ttl: 3600,
  data: {
    mname: `ns1.${Z}`,
    rname: `hostmaster.${Z}`,
    serial: 5,
    refresh: 7200,
    retry: 900,
    expire: 1209600,
    minimum: 300,
  },
} as Answer;

test('a compressed reply decodes to exactly the records of the uncompressed one, and is shorter', () => {
  const packet = reply(
    [
      { name: `www.${Z}`, type: 'A', ttl: 300, data: '192.0.2.1' },
      { name: `www.${Z}`, type: 'A', ttl: 300, data: '192.0.2.2' },
    ],
    [{ name: Z, type: 'NS', ttl: 300, data: `ns1.${Z}` }, { name: Z, type: 'NS', ttl: 300, data: `ns2.${Z}` }, soa],
    [
      { name: `ns1.${Z}`, type: 'A', ttl: 300, data: '192.0.2.53' },
      { name: `mail.${Z}`, type: 'MX', ttl: 300, data: { preference: 10, exchange: `mx.${Z}` } },
      { name: `p.${Z}`, type: 'PTR', ttl: 300, data: `www.${Z}` },
      { name: `c.${Z}`, type: 'CNAME', ttl: 300, data: `www.${Z}` },
      { name: '.', type: 'OPT', udpPayloadSize: 1232, flags: 0 } as Answer,
    ],
  );
  const plain = dnsPacket.encode(packet);
  const small = compressMessage(plain);
  assert.ok(small.length < plain.length * 0.7, `${small.length} of ${plain.length}`);
  assert.deepEqual(dnsPacket.decode(small), dnsPacket.decode(plain));
});

test("the question's name is written whole (the rate limiter's slip finds its end), and case is kept", () => {
  const packet = reply([{ name: `WWW.${Z}`, type: 'CNAME', ttl: 300, data: `www.${Z}` }]);
  const small = compressMessage(dnsPacket.encode(packet));
  // Question at 12: 3 www 7 example 3 org 0, then QTYPE and QCLASS.
  assert.equal(small.subarray(12, 12 + 17).toString('latin1'), '\u0003www\u0007example\u0003org\u0000');
  const d = dnsPacket.decode(small);
  assert.equal(d.answers![0]!.name, `WWW.${Z}`);
  assert.equal((d.answers![0] as { data: string }).data, `www.${Z}`);
});

test('names inside SRV, RRSIG and NSEC RDATA are not compressed (RFC 3597 4), though their owners are', () => {
  const packet = reply([
    { name: `_sip._tcp.${Z}`, type: 'SRV', ttl: 300, data: { priority: 1, weight: 2, port: 5060, target: `www.${Z}` } },
    { name: `www.${Z}`, type: 'NSEC', ttl: 300, data: { nextDomain: `x.www.${Z}`, rrtypes: ['A'] } },
  ]);
  const plain = dnsPacket.encode(packet);
  const small = compressMessage(plain);
  assert.deepEqual(dnsPacket.decode(small), dnsPacket.decode(plain));
  const srv = small.indexOf(Buffer.from([0x13, 0xc4])); // port 5060, then the target
  assert.equal(small.subarray(srv + 2, srv + 3)[0], 3, 'SRV target starts with its label, not a pointer');
  assert.ok(
    small.includes(Buffer.from('\u0001x\u0003www\u0007example\u0003org\u0000', 'latin1')),
    'NSEC next name whole',
  );
});

test('what it cannot read, or cannot shorten, it returns as it is', () => {
  const header = Buffer.alloc(12);
  assert.equal(compressMessage(header), header);
  const cut = dnsPacket.encode(reply([{ name: `www.${Z}`, type: 'A', ttl: 1, data: '192.0.2.1' }])).subarray(0, 40);
  assert.equal(compressMessage(cut), cut);
  const pointer = Buffer.concat([header, Buffer.from([0xc0, 0x0c])]);
  pointer.writeUInt16BE(1, 4);
  assert.equal(compressMessage(pointer), pointer);
});
