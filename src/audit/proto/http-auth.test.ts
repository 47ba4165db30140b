/**
 * HTTP authentication and forms without the network: the Digest responses
 * of RFC 7616 §3.9.1 (SHA-256 and MD5) and RFC 2617 §3.5 (MD5, qop=auth),
 * challenges several to a header, forms with hidden tokens and buttons,
 * cookies and same-server redirects.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HttpAnswer } from './http.ts';
import { describeChallenge, digestAuthorization, loginChallenge, parseChallenges } from './http-auth.ts';
import { CookieJar, formBody, parseForms, samePath } from './http-form.ts';

const answer = (status: number, auth: string): HttpAnswer => ({
  status,
  headers: { 'www-authenticate': auth },
  body: '',
  raw: Buffer.alloc(0),
  setCookies: [],
});
const responseOf = (auth: string) => /response="([0-9a-f]+)"/.exec(auth)?.[1];

test('Digest responses of RFC 7616 §3.9.1 and RFC 2617 §3.5', () => {
  // Two challenges, as the RFC's server sends them (joined the way our parser receives repeated headers).
  const header =
    'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"';
  const [sha, md5] = parseChallenges(header);
  assert.equal(sha?.params['algorithm'], 'SHA-256');
  assert.equal(md5?.params['algorithm'], 'MD5');
  const cnonce = 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ';
  const as = (c: typeof sha) => digestAuthorization(c!, 'GET', '/dir/index.html', 'Mufasa', 'Circle of Life', cnonce)!;
  assert.equal(responseOf(as(md5)), '8ca523f5e9506fed4657c9700eebdbec');
  assert.equal(responseOf(as(sha)), '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
  assert.match(as(sha), /qop=auth, nc=00000001, cnonce="f2\//);
  assert.match(as(sha), /opaque="FQhe/);
  // The strongest offered is the one a login answers.
  const chosen = loginChallenge(answer(401, header))!;
  assert.equal(chosen.params['algorithm'], 'SHA-256');
  assert.equal(
    describeChallenge(chosen),
    'Digest realm="http-auth@example.org", algorithm=SHA-256, qop="auth, auth-int"',
  );

  const [old] = parseChallenges(
    'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
  );
  assert.equal(
    responseOf(digestAuthorization(old!, 'GET', '/dir/index.html', 'Mufasa', 'Circle Of Life', '0a4f113b')!),
    '6629fae49393a05397450978507c4ef1',
  );
});

test('challenges: Basic beside Digest, Negotiate blobs, Basic alone, no 401', () => {
  const both = parseChallenges('Negotiate abc==, Basic realm="a, b", Digest realm="x", nonce="n", qop=auth');
  assert.deepEqual(
    both.map((c) => c.scheme),
    ['negotiate', 'basic', 'digest'],
  );
  assert.equal(both[1]!.params['realm'], 'a, b');
  assert.equal(loginChallenge(answer(401, 'Basic realm="monit"'))?.realm, 'monit');
  assert.equal(loginChallenge(answer(401, 'Basic realm="r", Digest realm="r", nonce="n"'))?.scheme, 'digest');
  // auth-int only or an unknown algorithm: Basic, when offered, else nothing.
  assert.equal(loginChallenge(answer(401, 'Digest realm="r", nonce="n", qop="auth-int"')), null);
  assert.equal(
    loginChallenge(answer(401, 'Digest realm="r", nonce="n", algorithm=SHA-1, Basic realm="r"'))?.scheme,
    'basic',
  );
  assert.equal(loginChallenge(answer(200, 'Basic realm="r"')), null);
});

test('forms: hidden tokens, the submit button, entities; cookies; redirects stay on the server', () => {
  const html = `<form method="post" action="index.php?route=/&amp;x=1" name="login_form">
    <input type="hidden" name="token" value="a&amp;b">
    <input type=text name=pma_username value="">
    <input type="password" name="pma_password">
    <select name="server"><option value="1">one</option><option value="2" selected>two</option></select>
    <input type="checkbox" name="remember">
    <button type="submit" name="enter" value="Sign in">Sign in</button>
  </form><form action="/search"><input name="q"></form>`;
  const [login, search] = parseForms(html);
  assert.equal(login!.action, 'index.php?route=/&x=1');
  assert.equal(login!.method, 'post');
  assert.equal(search!.method, 'get');
  assert.equal(
    formBody(login!, { pma_username: 'root', pma_password: '' }),
    'token=a%26b&pma_username=root&pma_password=&server=2&enter=Sign+in',
  );
  assert.equal(samePath(login!.action, '/phpmyadmin/', '127.0.0.1'), '/phpmyadmin/index.php?route=/&x=1');
  assert.equal(samePath('http://127.0.0.1:8080/a', '/', '127.0.0.1'), '/a');
  assert.equal(samePath('http://192.0.2.1/a', '/', '127.0.0.1'), null);
  assert.equal(samePath('//192.0.2.1/a', '/', '127.0.0.1'), null);
  const jar = new CookieJar();
  jar.take(['phpMyAdmin=abc; path=/; HttpOnly', 'pma_lang=en; expires=Thu, 01 Jan 2030 00:00:00 GMT']);
  jar.take(['pma_lang=deleted; Max-Age=0']);
  assert.equal(jar.header(), 'phpMyAdmin=abc');
});
