/**
 * php-fpm (Debian php8.2-fpm), two real pools on TCP started once for the
 * file: no listen.allowed_clients (FCGI_GET_VALUES answered) and the
 * hardened twin allowing 127.0.0.2 only (the scanner, whose connections
 * to 127/8 come from 127.0.0.1, is dropped before a byte is read).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostOf, netFor, PHP_FPM, phpFpm, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';

const A = (n: number) => `127.0.197.${n}`;

test('php-fpm on TCP without allowed_clients is found (FCGI_GET_VALUES); allowed_clients without the scanner is not', {
  skip: PHP_FPM ? false : 'php-fpm is not installed',
  timeout: 60_000,
}, async () => {
  const [open, shut] = await Promise.all([phpFpm(A(81)), phpFpm(A(181), ['listen.allowed_clients = 127.0.0.2'])]);
  const run = (address: string, port: number) =>
    checkById('vigil.fastcgi.open').runOn(hostOf(address, [service(port, 'fcgi')]), netFor(address));
  const [f] = await run(A(81), open);
  assert.match(
    f!.detail,
    /^FCGI_GET_VALUES was answered with FCGI_GET_VALUES_RESULT \((FCGI_\w+=\d+)(, FCGI_\w+=\d+)*\), without any client restriction\.$/,
  );
  assert.deepEqual(await run(A(181), shut), []);
});
