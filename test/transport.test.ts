import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SCRIPTS } from '../src/api/scripts.ts';
import { VigilClient, type RawReply } from '../src/client/index.ts';
import { addAccount, serve, type Served } from './helpers/server.ts';

const PASSWORD = 'correct horse 3';
const SCRIPT_NAMES = Object.keys(SCRIPTS);

/** Every reply, good or bad: JSON, never a 5xx, and an error holds only status and error. */
function assertErrorShape(r: RawReply, code: string, http = 200) {
  assert.equal(r.http, http, `http status for ${code}`);
  assert.match(r.contentType, /^application\/json/);
  assert.deepEqual(r.body, { status: '-1', error: code });
}

describe('transport rules', () => {
  let s: Served;
  let key: string;
  let c: VigilClient;
  let token: string;

  before(async () => {
    s = await serve();
    key = await addAccount(s.dataDir, 'tina', PASSWORD, '--dns-credits', '3');
    c = s.client();
    token = await c.login(key, 'tina', PASSWORD);
  });
  after(async () => {
    assert.equal(await s.stop(), 0);
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
        assertErrorShape(await plain.raw('POST', `/api/${name}`, '{"a":1}', { 'content-type': 'application/json' }), 'notSSL');
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
    for (const path of ['/api/nope.php', '/api/', '/api/auth.php/x', '/', '/api/..%2fauth.php', '/api/constructor', '/api/__proto__',
      `/api/${'a'.repeat(3000)}.php`, '/api/%ff.php', '/api/%zz', '/api/auth.php%00']) {
      assertErrorShape(await c.raw('POST', path, `apikey=${key}`), 'unknownScript', 404);
    }
  });

  test('bodies that are not a form: 415; too large: 413', async () => {
    for (const name of SCRIPT_NAMES) {
      for (const type of ['application/json', 'multipart/form-data; boundary=x', 'text/plain', 'application/x-www-form-urlencoded; charset=latin1']) {
        assertErrorShape(await c.raw('POST', `/api/${name}`, 'apikey=x', { 'content-type': type }), 'unsupportedMediaType', 415);
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
      assertErrorShape(await c.raw('POST', `/api/${name}`, `apikey=${key}&apikey=${key}&${rest}`), 'invalid apikey format');
      for (const b of bad) {
        assertErrorShape(await c.raw('POST', `/api/${name}`, `apikey=${b}&${rest}`), 'invalid apikey format');
      }
      assertErrorShape(await c.raw('POST', `/api/${name}`, ''), 'invalid apikey format');
      assertErrorShape(await c.raw('POST', `/api/${name}`, '', { 'content-type': '' }), 'invalid apikey format');
      if (session) {
        assertErrorShape(await c.raw('POST', `/api/${name}`, `apikey=${key}&sessionToken=${token}&sessionToken=${token}`), 'sessionAuthenticationFailure');
        for (const b of bad) {
          assertErrorShape(await c.raw('POST', `/api/${name}`, `apikey=${key}&sessionToken=${b}`), 'sessionAuthenticationFailure');
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
