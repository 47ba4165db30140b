// store-incidental: the API certificate read again on SIGHUP; the store is not involved.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { connect, type TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import { dbArgs } from './helpers/pgdb.ts';
import { freePort, tempDir, VIGIL } from './helpers/server.ts';

/** A self-signed certificate whose common name tells it apart. */
async function certificate(name: string): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
  } as any);
  return { cert: pems.cert, key: pems.private };
}

/** As certbot and most deploy tools do: new files renamed into place. */
function install(dir: string, pems: { cert: string; key: string }, certFile = 'cert.pem', keyFile = 'key.pem') {
  writeFileSync(join(dir, 'new-cert'), pems.cert);
  writeFileSync(join(dir, 'new-key'), pems.key, { mode: 0o600 });
  renameSync(join(dir, 'new-key'), join(dir, keyFile));
  renameSync(join(dir, 'new-cert'), join(dir, certFile));
}

/** `serve` with the API only; stderr (JSON logs at info) is kept for awaiting log lines. */
async function start(
  data: string,
  args: string[],
): Promise<{ port: number; proc: ChildProcess; log: (msg: string) => Promise<void>; stop(): Promise<void> }> {
  const port = await freePort();
  const proc = spawn(
    VIGIL,
    [
      'serve',
      '--data',
      data,
      '--https-port',
      String(port),
      '--http-port',
      '0',
      '--dns-port',
      '0',
      '--forward-port',
      '0',
      ...(await dbArgs(data)),
      ...args,
    ],
    {
      env: { ...process.env, VIGIL_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  let seen = 0;
  const waiters: (() => void)[] = [];
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => {
    err += d;
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise<void>((res, rej) => {
    proc.stdout!.on('data', () => out.includes('vigil ready') && res());
    proc.once('exit', (code) => rej(new Error(`vigil exited ${code}: ${err}`)));
  });
  /** The next log line with this message after the previous one awaited. */
  const log = (msg: string) =>
    new Promise<void>((res) => {
      const check = () => {
        const lines = err.split('\n');
        const i = lines.findIndex((l, n) => n >= seen && l.includes(`"msg":"${msg}"`));
        if (i >= 0) {
          seen = i + 1;
          res();
        } else waiters.push(check);
      };
      check();
    });
  const stop = () =>
    new Promise<void>((res) =>
      proc.exitCode !== null ? res() : (proc.once('exit', () => res()), proc.kill('SIGTERM')),
    );
  return { port, proc, log, stop };
}

function tlsConnect(port: number): Promise<TLSSocket> {
  return new Promise((res, rej) => {
    const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => res(s));
    s.once('error', rej);
  });
}

const commonName = (s: TLSSocket) => s.getPeerCertificate().subject?.CN;

/** Reads one HTTP/1.1 response with a Content-Length off a kept-alive socket. */
function response(s: TLSSocket): Promise<{ status: number; body: string }> {
  return new Promise((res, rej) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      s.off('data', onData);
      res({ status: Number(buf.slice(9, 12)), body: buf.slice(end + 4, end + 4 + length) });
    };
    s.on('data', onData);
    s.once('close', () => rej(new Error('connection closed')));
  });
}

const BODY = 'userid=nobody';
const HEAD = `POST /api/nosuch.php HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${BODY.length}\r\nConnection: keep-alive\r\n\r\n`;

describe('SIGHUP reloads the API certificate without dropping connections', () => {
  test('--tls-cert/--tls-key: new handshakes get the new certificate; a request in flight and its connection carry on', async () => {
    const data = tempDir();
    install(data, await certificate('first'));
    const next = await certificate('second');
    const server = await start(data, ['--tls-cert', join(data, 'cert.pem'), '--tls-key', join(data, 'key.pem')]);
    try {
      const open = await tlsConnect(server.port);
      assert.equal(commonName(open), 'first');
      // Headers and half the body sent: the request is in flight across the reload.
      open.write(HEAD + BODY.slice(0, 4));
      install(data, next);
      server.proc.kill('SIGHUP');
      await server.log('API certificate reloaded');
      const fresh = await tlsConnect(server.port);
      assert.equal(commonName(fresh), 'second');
      fresh.destroy();
      const answer = response(open);
      open.write(BODY.slice(4));
      const first = await answer;
      assert.equal(first.status, 404);
      assert.equal(JSON.parse(first.body).error, 'unknownScript');
      // And the same connection takes another request.
      const again = response(open);
      open.write(HEAD + BODY);
      assert.equal((await again).status, 404);
      assert.equal(commonName(open), 'first', 'an open connection keeps its session');
      open.destroy();

      // A key that does not fit: refused, logged, the second certificate stays.
      install(data, { cert: (await certificate('third')).cert, key: next.key });
      server.proc.kill('SIGHUP');
      await server.log('API certificate not reloaded; the previous one stays');
      const still = await tlsConnect(server.port);
      assert.equal(commonName(still), 'second');
      still.destroy();
    } finally {
      await server.stop();
    }
  });

  test('the generated certificate in DATA/tls/ is read again too', async () => {
    const data = tempDir();
    const server = await start(data, []);
    try {
      const before = await tlsConnect(server.port);
      assert.equal(commonName(before), 'vigil');
      before.destroy();
      install(join(data, 'tls'), await certificate('replaced'));
      server.proc.kill('SIGHUP');
      await server.log('API certificate reloaded');
      const after = await tlsConnect(server.port);
      assert.equal(commonName(after), 'replaced');
      after.destroy();
    } finally {
      await server.stop();
    }
  });
});
