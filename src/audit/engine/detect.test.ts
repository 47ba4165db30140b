import assert from 'node:assert/strict';
import { createServer as createHttp } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import selfsigned from 'selfsigned';
import { detectServices, probesFor } from './detect.ts';
import { Fence } from './fence.ts';

const net = new Fence(['127.0.0.1'], ['127.0.0.0/8']).net('127.0.0.1', 2000);
const servers: { close(): unknown }[] = [];
const sockets = new Set<Socket>();
after(() => {
  sockets.forEach((s) => s.destroy());
  servers.forEach((s) => s.close());
});

async function listen(server: Server): Promise<number> {
  server.on(
    'connection',
    (c: Socket) => (sockets.add(c), c.on('close', () => sockets.delete(c)), c.on('error', () => {})),
  );
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/** A line server: greeting, then `reply(line)` for each line received. */
const lines = (greeting: string | Buffer, reply: (line: string) => string | null = () => null) =>
  listen(
    createServer((c) => {
      c.write(greeting);
      let buf = '';
      c.on('data', (d) => {
        buf += d.toString('latin1');
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const r = reply(buf.slice(0, i).replace(/\r$/, ''));
          buf = buf.slice(i + 1);
          if (r !== null) c.write(r);
        }
      });
    }),
  );

const ports: Record<string, number> = {};
before(async () => {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'old.example' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.UTC(2020, 0, 1)),
    notAfterDate: new Date(Date.UTC(2021, 0, 1)),
  });
  ports.http = await listen(createHttp((_q, r) => r.end('hello')) as unknown as Server);
  ports.https = await listen(
    createHttps(
      { key: pems.private, cert: pems.cert },
      (_q, r) => (r.setHeader('Server', 'nginx/1.18.0'), r.end('secure')),
    ) as unknown as Server,
  );
  ports.ssh = await lines('SSH-2.0-OpenSSH_7.4\r\n');
  ports.ftp = await lines('220 (vsFTPd 2.3.4)\r\n', (l) =>
    l === 'FEAT' ? '211-Features:\r\n EPSV\r\n UTF8\r\n211 End\r\n' : '500 Unknown command.\r\n',
  );
  ports.smtp = await lines('220 mail.example.com ESMTP Exim 4.92 Mon, 1 Jan 2024\r\n', (l) =>
    l.startsWith('EHLO')
      ? '250-mail.example.com Hello\r\n250-SIZE 52428800\r\n250-STARTTLS\r\n250 HELP\r\n'
      : '221 bye\r\n',
  );
  ports.pop3 = await lines('+OK Dovecot ready.\r\n', (l) =>
    l === 'CAPA' ? '+OK\r\nUSER\r\nSTLS\r\n.\r\n' : '+OK\r\n',
  );
  ports.imap = await lines('* OK [CAPABILITY IMAP4rev1 STARTTLS AUTH=PLAIN] Dovecot ready.\r\n');
  ports.redis = await lines('', (l) =>
    l === 'PING'
      ? '+PONG\r\n'
      : l === 'INFO server'
        ? '$40\r\n# Server\r\nredis_version:6.2.6\r\nredis_mo\r\n'
        : '-ERR unknown\r\n',
  );
  const greet = Buffer.concat([
    Buffer.from([10]),
    Buffer.from('5.5.5-10.11.6-MariaDB-0+deb12u1\0', 'latin1'),
    Buffer.alloc(40, 1),
  ]);
  const head = Buffer.from([greet.length & 0xff, greet.length >> 8, 0, 0]);
  ports.mysql = await lines(Buffer.concat([head, greet]));
  ports.vnc = await lines('RFB 003.008\n');
  ports.garbage = await listen(createServer((c) => c.write(Buffer.from('8f3a00ffe1c20d0a7b9912', 'hex'))));
  ports.instantClose = await listen(createServer((c) => c.destroy()));
  ports.silent = await listen(createServer(() => {}));
});

test('detects each service with name, product and version', async () => {
  const byName = Object.fromEntries(Object.entries(ports).map(([k, v]) => [v, k]));
  const found = await detectServices(net, Object.values(ports), { bannerMs: 500, portBudgetMs: 8000 });
  const s = Object.fromEntries(found.map((x) => [byName[x.port], x]));
  assert.equal(found.length, Object.keys(ports).length);

  assert.equal(s.http.name, 'http');
  assert.equal(s.http.http?.status, 200);
  assert.equal(s.http.http?.body, 'hello');

  assert.equal(s.https.name, 'https');
  assert.equal(s.https.product, 'nginx');
  assert.equal(s.https.version, '1.18.0');
  const cert = s.https.tls?.certificate;
  assert.ok(cert);
  assert.equal(cert.selfSigned, true);
  assert.ok(cert.notAfter < Date.now());
  assert.match(cert.subject, /CN=old\.example/);
  assert.equal(cert.keyType, 'RSA');
  assert.equal(cert.keyBits, 2048);
  assert.equal(cert.signatureAlgorithm, 'sha256WithRSAEncryption');

  assert.deepEqual([s.ssh.name, s.ssh.product, s.ssh.version], ['ssh', 'OpenSSH', '7.4']);
  assert.deepEqual([s.ftp.name, s.ftp.product, s.ftp.version], ['ftp', 'vsftpd', '2.3.4']);
  assert.equal(s.ftp.extra.features, 'EPSV, UTF8');
  assert.deepEqual([s.smtp.name, s.smtp.product, s.smtp.version], ['smtp', 'Exim smtpd', '4.92']);
  assert.match(s.smtp.extra.extensions!, /STARTTLS/);
  assert.deepEqual([s.pop3.name, s.pop3.product], ['pop3', 'Dovecot']);
  assert.match(s.pop3.extra.capabilities!, /STLS/);
  assert.deepEqual([s.imap.name, s.imap.product], ['imap', 'Dovecot']);
  assert.match(s.imap.extra.capabilities!, /STARTTLS/);
  assert.deepEqual([s.redis.name, s.redis.product, s.redis.version], ['redis', 'Redis', '6.2.6']);
  assert.deepEqual([s.mysql.name, s.mysql.product, s.mysql.version], ['mysql', 'MariaDB', '10.11.6']);
  assert.deepEqual([s.vnc.name, s.vnc.version], ['vnc', '3.8']);

  for (const k of ['garbage', 'instantClose', 'silent']) assert.equal(s[k].name, 'unknown', k);
  assert.ok(s.garbage.banner);
});

test('port-only families (Family.only) are probed on their own ports and never cost another port a connection', () => {
  const ids = (port: number) => probesFor(port).map((f) => f.id);
  // An unusual port: none of them.
  for (const id of ['jdwp', 'distcc', 'kerberos', 'memberlist', 'jetdirect', 'sane', 'rpc', 'iscsi', 'beanstalkd'])
    assert.ok(!ids(23456).includes(id), id);
  // Their own ports: first.
  assert.equal(ids(11300)[0], 'beanstalkd');
  assert.equal(ids(9100)[0], 'jetdirect');
  assert.ok(ids(5005).includes('jdwp'));
  // Families without the flag are still tried everywhere (HTTP after its own ports).
  assert.ok(ids(23456).includes('http'));
});
