/**
 * Grafana's shipped admin/admin. Grafana is not in Debian 12, so this is a
 * loopback replay of the answers Grafana documents and sends (HTTP API
 * docs: /api/health, /login, /api/user; 10.x's JSON messages): one Grafana
 * still on admin/admin, its twin with the password changed (401 "Invalid
 * username or password"). The check must log in once, read /api/user with
 * the session, and log out.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { freePort } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { fetchHttpInfo } from '../../proto/http.ts';
import check from './grafana-default-login.ts';

const ADDR = '127.14.108.2';

interface Replay {
  port: number;
  logins: string[];
  sessions: Set<string>;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

async function grafana(password: string): Promise<Replay> {
  const r: Replay = { port: await freePort(ADDR), logins: [], sessions: new Set(), close: async () => {} };
  const session = (req: IncomingMessage) => /grafana_session=(\w+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/') return res.writeHead(302, { Location: '/login' }).end();
      if (req.url === '/api/health') return json(res, 200, { commit: '03f502a94d', database: 'ok', version: '10.2.3' });
      if (req.method === 'POST' && req.url === '/login') {
        r.logins.push(body);
        const { user, password: p } = JSON.parse(body) as { user: string; password: string };
        if (user !== 'admin' || p !== password)
          return json(res, 401, {
            message: 'Invalid username or password',
            messageId: 'password-auth.failed',
            statusCode: 401,
          });
        const id = randomBytes(16).toString('hex');
        r.sessions.add(id);
        return json(
          res,
          200,
          { message: 'Logged in', redirectUrl: '/' },
          {
            'Set-Cookie': `grafana_session=${id}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`,
          },
        );
      }
      if (req.url === '/api/user') {
        if (!r.sessions.has(session(req))) return json(res, 401, { message: 'Unauthorized' });
        return json(res, 200, {
          id: 1,
          email: 'admin@localhost',
          name: '',
          login: 'admin',
          orgId: 1,
          isGrafanaAdmin: true,
        });
      }
      if (req.url === '/logout') {
        r.sessions.delete(session(req));
        return res.writeHead(302, { Location: '/login', 'Set-Cookie': 'grafana_session=; Path=/; Max-Age=0' }).end();
      }
      json(res, 404, { message: 'Not found' });
    });
  });
  await new Promise<void>((ok) => server.listen(r.port, ADDR, ok));
  r.close = () => new Promise((ok) => server.close(() => ok()));
  return r;
}

let shipped: Replay;
let changed: Replay;
before(async () => {
  [shipped, changed] = await Promise.all([grafana('admin'), grafana('n0t-the-default-4Rt')]);
});
after(async () => {
  await Promise.all([shipped.close(), changed.close()]);
});

const run = async (port: number) => {
  const net = netFor(ADDR);
  const svc = service(port, 'http', { http: await fetchHttpInfo(net, port, false) });
  return check.runOn(hostOf(ADDR, [svc]), net);
};

test('Grafana on admin/admin is found with the account it logged in to; the session is ended', async () => {
  const [f] = await run(shipped.port);
  assert.match(
    f!.detail,
    /^Grafana 10\.2\.3 \(GET \/api\/health\): POST \/login with \{"user":"admin","password":"a\*\*\*n"\} was answered 200 "Logged in" setting grafana_session; GET \/api\/user with that session answered login "admin", isGrafanaAdmin true\./,
  );
  assert.equal(shipped.logins.length, 1);
  assert.equal(shipped.sessions.size, 0);
});

test('Grafana with the admin password changed is not reported, after one try', async () => {
  assert.deepEqual(await run(changed.port), []);
  assert.deepEqual(changed.logins, ['{"user":"admin","password":"admin"}']);
});
