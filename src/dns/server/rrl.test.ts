import assert from 'node:assert/strict';
import { test } from 'node:test';
import dnsPacket from 'dns-packet';
import { ManualClock } from '../../clock.ts';
import type { Resolution } from './resolve.ts';
import { clientNetwork, ResponseRateLimiter, responseKey, responseKeyOf, slipReply } from './rrl.ts';

const verdicts = (rrl: ResponseRateLimiter, address: string, key: string, n: number) =>
  Array.from({ length: n }, () => rrl.check(address, key));
const tally = (v: string[]) => ({
  answer: v.filter((x) => x === 'answer').length,
  slip: v.filter((x) => x === 'slip').length,
  drop: v.filter((x) => x === 'drop').length,
});

test('a bucket holds `rate` answers; beyond them every second response slips, starting with the first', () => {
  const rrl = new ResponseRateLimiter(5, [], new ManualClock());
  const v = verdicts(rrl, '192.0.2.1', 'k', 11);
  assert.deepEqual(v, [...Array(5).fill('answer'), 'slip', 'drop', 'slip', 'drop', 'slip', 'drop']);
});

test('the Clock refills `rate` a second, in proportion, never above `rate`', () => {
  const clock = new ManualClock();
  const rrl = new ResponseRateLimiter(20, [], clock);
  assert.deepEqual(tally(verdicts(rrl, '192.0.2.1', 'k', 25)), { answer: 20, slip: 3, drop: 2 });
  clock.advance(100); // 2 tokens
  assert.equal(tally(verdicts(rrl, '192.0.2.1', 'k', 5)).answer, 2);
  clock.advance(50); // 1 token
  assert.equal(tally(verdicts(rrl, '192.0.2.1', 'k', 5)).answer, 1);
  clock.advance(60_000); // a minute idle is one second's worth, not sixty
  assert.equal(tally(verdicts(rrl, '192.0.2.1', 'k', 30)).answer, 20);
  clock.advance(-5_000); // the clock going back refills nothing and owes nothing
  assert.equal(tally(verdicts(rrl, '192.0.2.1', 'k', 3)).answer, 0);
  clock.advance(1000);
  assert.equal(tally(verdicts(rrl, '192.0.2.1', 'k', 30)).answer, 20);
});

test('buckets are per client network (IPv4 /24, IPv6 /56) and per response key', () => {
  const rrl = new ResponseRateLimiter(2, [], new ManualClock());
  assert.equal(tally(verdicts(rrl, '192.0.2.1', 'k', 5)).answer, 2);
  assert.equal(tally(verdicts(rrl, '192.0.2.200', 'k', 5)).answer, 0, 'same /24');
  assert.equal(tally(verdicts(rrl, '::ffff:192.0.2.7', 'k', 5)).answer, 0, 'IPv4-mapped: the same /24');
  assert.equal(tally(verdicts(rrl, '192.0.3.1', 'k', 5)).answer, 2, 'next /24');
  assert.equal(tally(verdicts(rrl, '192.0.2.1', 'other', 5)).answer, 2, 'another answer');
  assert.equal(tally(verdicts(rrl, '2001:db8:0:ab00::1', 'k', 5)).answer, 2);
  assert.equal(tally(verdicts(rrl, '2001:db8:0:abff:1::9', 'k', 5)).answer, 0, 'same /56');
  assert.equal(tally(verdicts(rrl, '2001:db8:0:ac00::1', 'k', 5)).answer, 2, 'next /56');
  assert.equal(clientNetwork('198.51.100.9'), '198.51.100');
  assert.equal(clientNetwork('2001:DB8::1'), clientNetwork('2001:db8:0:ff::'));
});

test('exempt addresses (the secondaries) are never limited, in any spelling', () => {
  const rrl = new ResponseRateLimiter(1, ['192.0.2.53', '2001:db8::53'], new ManualClock());
  assert.equal(tally(verdicts(rrl, '192.0.2.53', 'k', 50)).answer, 50);
  assert.equal(tally(verdicts(rrl, '::ffff:192.0.2.53', 'k', 50)).answer, 50);
  assert.equal(tally(verdicts(rrl, '2001:0db8:0:0::53', 'k', 50)).answer, 50);
  assert.equal(tally(verdicts(rrl, '192.0.2.54', 'k', 5)).answer, 1);
});

test('memory is bounded: idle buckets age out, a flood of networks cannot grow the map without end', () => {
  const clock = new ManualClock();
  const rrl = new ResponseRateLimiter(20, [], clock);
  for (let i = 0; i < 120_000; i++) rrl.check(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `k${i & 255}`);
  assert.ok(rrl.size <= 100_000, `${rrl.size} buckets`);
  clock.advance(1000);
  rrl.check('203.0.113.1', 'k');
  for (let i = 0; i < 100_000; i++) rrl.check(`11.${(i >> 8) & 255}.${i & 255}.1`, 'x');
  assert.ok(rrl.size <= 100_000);
});

test('the slip: the header and question of the reply, TC set, no records', () => {
  const reply = dnsPacket.encode({
    type: 'response',
    id: 77,
    flags: dnsPacket.AUTHORITATIVE_ANSWER,
    questions: [{ type: 'TXT', name: 'big.example', class: 'IN' }],
    answers: [{ type: 'TXT', name: 'big.example', ttl: 60, data: 'x'.repeat(200) }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as dnsPacket.Answer],
  });
  const slip = slipReply(reply);
  assert.equal(slip.length, 12 + 13 + 4);
  const d = dnsPacket.decode(slip);
  assert.equal(d.id, 77);
  assert.equal((d.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE, dnsPacket.TRUNCATED_RESPONSE);
  assert.deepEqual(d.questions, [{ type: 'TXT', name: 'big.example', class: 'IN' }]);
  assert.deepEqual([d.answers?.length, d.authorities?.length, d.additionals?.length], [0, 0, 0]);
  assert.equal(slipReply(Buffer.from(reply.subarray(0, 14))).length, 12, 'a cut question: the header alone');
});

test('response keys: name and type for answers, the wildcard, the zone for NXDOMAIN, the cut for referrals', () => {
  const r = (rcode: Resolution['rcode'], proof?: Resolution['proof']): Resolution => ({
    rcode,
    aa: true,
    answers: [],
    authorities: [],
    additionals: [],
    proof,
  });
  const Z = 'example.com';
  assert.equal(
    responseKey('www.example.com', 'A', Z, r('NOERROR', { kind: 'answer', name: 'www.example.com', wild: [] })),
    'www.example.com|A',
  );
  const wild = {
    kind: 'answer' as const,
    name: 'x.w.example.com',
    wild: [{ qname: 'x.w.example.com', wildcard: '*.w.example.com' }],
  };
  assert.equal(responseKey('x.w.example.com', 'A', Z, r('NOERROR', wild)), '*.w.example.com|A');
  assert.equal(
    responseKey('a.example.com', 'MX', Z, r('NOERROR', { kind: 'nodata', name: 'a.example.com', wild: [] })),
    'a.example.com|NODATA',
  );
  assert.equal(
    responseKey('r1.example.com', 'A', Z, r('NXDOMAIN', { kind: 'nxdomain', name: 'r1.example.com', wild: [] })),
    'example.com|NXDOMAIN',
  );
  assert.equal(
    responseKey(
      'h.sub.example.com',
      'A',
      Z,
      r('NOERROR', { kind: 'referral', name: 'h.sub.example.com', wild: [], at: 'sub.example.com' }),
    ),
    'sub.example.com|REFERRAL',
  );
  assert.equal(responseKey('elsewhere.org', 'A', undefined, r('REFUSED')), '!REFUSED');
  const formerr = Buffer.alloc(12);
  formerr.writeUInt16BE(0x8001, 2);
  assert.equal(responseKeyOf(formerr), '!0|1');
});
