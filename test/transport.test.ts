// store-incidental: HTTP transport rules (methods, bodies, headers, paths), decided before a script reads the store.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SCRIPTS } from '../src/api/scripts.ts';
import { VigilClient, type RawReply } from '../src/client/index.ts';
import { exchange, parseReplies, postHead, type HttpReply } from './helpers/raw.ts';
import { addAccount, serve, type Served } from './helpers/server.ts';

const PASSWORD = 'correct horse 3';
const SCRIPT_NAMES = Object.keys(SCRIPTS);

/** Every reply, good or bad: JSON, never a 5xx, and an error holds only status and error. */
function assertErrorShape(r: RawReply, code: string, http = 200) {
  assert.equal(r.http, http, `http status for ${code}`);
  assert.match(r.contentType, /^application\/json/);
  assert.deepEqual(r.body, { status: '-1', error: code });
}

/** A reply read off a raw socket: the JSON error shape too, and the connection closed after it. */
function assertRawError(r: HttpReply | undefined, code: string, http: number) {
  assert.ok(r, `no reply for ${code}`);
  assert.equal(r.status, http, `http status for ${code}: ${r.body}`);
  assert.match(r.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(r.headers.connection, 'close');
  assert.deepEqual(JSON.parse(r.body), { status: '-1', error: code });
}

// One `serve` for both groups below: the raw-socket edges need no account, and nothing here changes what
// the other group sees (a start of bin/vigil costs 1-2 s of CPU; issue 32).
let s: Served;
before(async () => {
  s = await serve();
});
after(async () => {
  assert.equal(await s.stop(), 0);
});

describe('transport rules', () => {
  let key: string;
  let c: VigilClient;
  let token: string;

  before(async () => {
    key = await addAccount(s.dataDir, 'tina', PASSWORD, '--dns-credits', '3');
    c = s.client();
    token = await c.login(key, 'tina', PASSWORD);
  });

  test('the table routes the spec scripts that have landed', () => {
    assert.ok(SCRIPT_NAMES.includes('auth.php'));
    assert.ok(SCRIPT_NAMES.includes('dnsGetDomainList.php'));
  });

  test('plain HTTP answers notSSL for every script, any method, any body', async () => {
    const plain = new VigilClient({ baseUrl: s.httpUrl });
    try {
      for (const name of [...SCRIPT_NAMES, 'saRunAudit.php', 'nonexistent.php', '%ff.php', 'a'.repeat(500)]) {
        assertErrorShape(await plain.raw('POST', `/api/${name}`, `apikey=${key}&sessionToken=${token}`), 'notSSL');
        assertErrorShape(await plain.raw('GET', `/api/${name}`), 'notSSL');
        assertErrorShape(
          await plain.raw('POST', `/api/${name}`, '{"a":1}', { 'content-type': 'application/json' }),
          'notSSL',
        );
      }
    } finally {
      plain.close();
    }
  });

  test('methods other than POST: 405 with the JSON error shape', async () => {
    for (const name of SCRIPT_NAMES) {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        assertErrorShape(await c.raw(method, `/api/${name}`), 'methodNotAllowed', 405);
        assertErrorShape(await c.raw(method, `/api/${'x'.repeat(500)}`), 'methodNotAllowed', 405);
      }
    }
  });

  test('unknown scripts and paths: 404 unknownScript', async () => {
    for (const path of [
      '/api/nope.php',
      '/api/',
      '/api/auth.php/x',
      '/',
      '/api/..%2fauth.php',
      '/api/constructor',
      '/api/__proto__',
      `/api/${'a'.repeat(3000)}.php`,
      '/api/%ff.php',
      '/api/%zz',
      '/api/auth.php%00',
    ]) {
      assertErrorShape(await c.raw('POST', path, `apikey=${key}`), 'unknownScript', 404);
    }
  });

  test('bodies that are not a form: 415; too large: 413', async () => {
    for (const name of SCRIPT_NAMES) {
      for (const type of [
        'application/json',
        'multipart/form-data; boundary=x',
        'text/plain',
        'application/x-www-form-urlencoded; charset=latin1',
      ]) {
        assertErrorShape(
          await c.raw('POST', `/api/${name}`, 'apikey=x', { 'content-type': type }),
          'unsupportedMediaType',
          415,
        );
      }
      const big = `apikey=${key}&sessionToken=${token}&x=${'a'.repeat(300 * 1024)}`;
      assertErrorShape(await c.raw('POST', `/api/${name}`, big), 'requestTooLarge', 413);
    }
  });

  test('repeated keys, NUL bytes, bad escapes and bad UTF-8 make a field invalid, not a guess', async () => {
    const bad = ['%00', 'a%00b', '%zz', '%', '%e2%28%a1', '%ff', '%c0%80'];
    for (const name of SCRIPT_NAMES) {
      const session = name !== 'auth.php';
      const rest = session ? `sessionToken=${token}` : 'userid=tina&password=x';
      assertErrorShape(
        await c.raw('POST', `/api/${name}`, `apikey=${key}&apikey=${key}&${rest}`),
        'invalid apikey format',
      );
      for (const b of bad) {
        assertErrorShape(await c.raw('POST', `/api/${name}`, `apikey=${b}&${rest}`), 'invalid apikey format');
      }
      assertErrorShape(await c.raw('POST', `/api/${name}`, ''), 'invalid apikey format');
      assertErrorShape(await c.raw('POST', `/api/${name}`, '', { 'content-type': '' }), 'invalid apikey format');
      if (session) {
        assertErrorShape(
          await c.raw('POST', `/api/${name}`, `apikey=${key}&sessionToken=${token}&sessionToken=${token}`),
          'sessionAuthenticationFailure',
        );
        for (const b of bad) {
          assertErrorShape(
            await c.raw('POST', `/api/${name}`, `apikey=${key}&sessionToken=${b}`),
            'sessionAuthenticationFailure',
          );
        }
      }
    }
    // A password sent twice is never "the" password.
    const twice = `apikey=${key}&userid=tina&password=${encodeURIComponent(PASSWORD)}&password=${encodeURIComponent(PASSWORD)}`;
    assertErrorShape(await c.raw('POST', '/api/auth.php', twice), 'invalidLogin');
  });

  test('random bytes never produce a 5xx, and the server keeps serving', async () => {
    for (let i = 0; i < 300; i++) {
      const name = SCRIPT_NAMES[i % SCRIPT_NAMES.length]!;
      const body = randomBytes(1 + (i % 200)).toString('latin1');
      const r = await c.raw('POST', `/api/${name}`, body);
      assert.ok(r.http < 500, `http ${r.http}`);
      assert.equal(r.body.status, '-1');
      assert.deepEqual(Object.keys(r.body).sort(), ['error', 'status']);
    }
    assert.equal((await c.call('dnsGetDomainList.php')).status, '0');
  });
});

describe('transport edges on a raw socket: every reply in the JSON error shape', () => {
  let tls: { port: number; ca: string };
  let plain: { port: number };

  before(() => {
    tls = { port: Number(new URL(s.httpsUrl).port), ca: s.ca };
    plain = { port: Number(new URL(s.httpUrl).port) };
  });

  test('a Content-Length shorter than the body: the request is answered, the rest is a malformed request', async () => {
    // "apikey=x" is the request; "yz&other=1" is read as the next request's start.
    const { data, error } = await exchange(tls, `${postHead('/api/auth.php', 8)}apikey=xyz&other=1`);
    assert.equal(error, null);
    const replies = parseReplies(data);
    assert.equal(replies.length, 2, data.toString());
    assert.equal(replies[0]!.status, 200);
    assert.deepEqual(JSON.parse(replies[0]!.body), { status: '-1', error: 'invalid apikey format' });
    assertRawError(replies[1], 'malformedRequest', 400);
  });

  test('a NUL byte in the path: 400 malformedRequest, on both listeners', async () => {
    for (const target of [tls, plain]) {
      const { data, error } = await exchange(
        target,
        `POST /api/auth.php\0x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n`,
      );
      assert.equal(error, null);
      const replies = parseReplies(data);
      assert.equal(replies.length, 1);
      assertRawError(replies[0], 'malformedRequest', 400);
    }
  });

  test('headers of 20 KB, 60 KB and 200 KB: 431 headersTooLarge, never a reset', async () => {
    for (const size of [20 * 1024, 60 * 1024, 200 * 1024]) {
      for (const target of [tls, plain]) {
        const { data, error } = await exchange(
          target,
          postHead('/api/auth.php', 0, `X-Filler: ${'a'.repeat(size)}\r\n`),
        );
        assert.equal(error, null, `${size} bytes: the connection was reset`);
        const replies = parseReplies(data);
        assert.equal(replies.length, 1);
        assertRawError(replies[0], 'headersTooLarge', 431);
      }
    }
  });

  test('a body over the limit: 413 requestTooLarge, read from the declared length', async () => {
    const { data, error } = await exchange(
      tls,
      `${postHead('/api/auth.php', 10_000_000)}apikey=${'a'.repeat(64 * 1024)}`,
    );
    assert.equal(error, null);
    const replies = parseReplies(data);
    assert.equal(replies.length, 1);
    assertRawError(replies[0], 'requestTooLarge', 413);
  });

  test('garbage instead of HTTP: 400 malformedRequest', async () => {
    for (const target of [tls, plain]) {
      const { data, error } = await exchange(target, 'HELLO\r\n\r\n');
      assert.equal(error, null);
      assertRawError(parseReplies(data)[0], 'malformedRequest', 400);
    }
  });
});
