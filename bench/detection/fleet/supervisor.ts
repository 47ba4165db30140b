/**
 * Debian supervisor's supervisord, K = 89 (N = 1 and 101; Jupyter beside
 * it), in the foreground, managing one sleeper. Weak: [inet_http_server]
 * without username and password (its XML-RPC control API answers
 * anyone). Twin: what supervisor's docs advise, username and password and
 * the interface on 127.0.0.1, so nothing answers on the twin address. The
 * 401 of credentials alone is tested in supervisor.test.ts, not planted:
 * HTTP Basic over plain HTTP is a finding of its own
 * (vigil.http.basic-auth-cleartext).
 */
import { freePort, supervisorConf } from '../../../test/helpers/exec-daemons.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 89;
const A = (n: number) => addr(K, n);
const PORT = 9001;

export const SUPERVISOR: Daemon = {
  kind: 'supervisor',
  binaries: ['supervisord'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'supervisor-rpc-open',
      family: 'auth',
      label: 'supervisord XML-RPC without credentials ([inet_http_server] with no username/password)',
      daemon: 'supervisord',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.supervisor\.rpc-open$/ },
      // nmap -sV names "Medusa httpd (Supervisor process manager)"; no script of default,vuln,safe calls the API.
      nmap: none,
    },
  ],
  twins: [{ address: A(101), note: 'username and password, the interface on 127.0.0.1 only' }],
  async start(ctx) {
    const open = ctx.spawn('supervisord-open', 'supervisord', [
      '-n',
      '-c',
      supervisorConf(ctx.dir('open'), A(1), PORT, false),
    ]);
    await ctx.waitTcp(A(1), PORT, open);
    const local = await freePort('127.0.0.1');
    const conf = supervisorConf(ctx.dir('local'), '127.0.0.1', local, true);
    await ctx.waitTcp('127.0.0.1', local, ctx.spawn('supervisord-local', 'supervisord', ['-n', '-c', conf]));
  },
};
