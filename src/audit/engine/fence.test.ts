import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { test } from 'node:test';
import { Fence, FenceError } from './fence.ts';

test('the fence: only a permitted address inside --scan-allow gets a Net', () => {
  const fence = new Fence(['127.0.0.40'], ['127.0.0.0/8']);
  assert.equal(fence.net('127.0.0.40').address, '127.0.0.40');
  assert.throws(() => fence.net('127.0.0.41'), FenceError); // not in the request
  assert.throws(() => new Fence(['127.0.0.40'], ['10.0.0.0/8']).net('127.0.0.40'), FenceError); // outside --scan-allow
});

test('UDP: a reply comes back; a closed port ends the wait at the ICMP refusal, not at the timeout', async () => {
  const server = createSocket('udp4').on('message', (msg, from) =>
    server.send(Buffer.concat([Buffer.from('re:'), msg]), from.port, from.address),
  );
  await new Promise<void>((r) => server.bind(0, '127.0.0.40', r));
  try {
    const net = new Fence(['127.0.0.40'], ['127.0.0.0/8']).net('127.0.0.40');
    assert.equal(String(await net.udpRequest(server.address().port, Buffer.from('ping'))), 're:ping');
    // The probe's timeout is 40 s; only the refusal can end the wait before the 20 s mark.
    const mark = new Promise((r) => setTimeout(r, 20_000, 'still waiting').unref());
    assert.equal(await Promise.race([net.udpRequest(9, Buffer.from('ping'), { timeoutMs: 40_000 }), mark]), null);
  } finally {
    server.close();
  }
});
