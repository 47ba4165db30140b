import { randomBytes } from 'node:crypto';
import type { Check, Finding, HostFacts, Net, Risk, Service } from '../types.ts';
import { httpRequest, isHttpService, usesTls, type HttpAnswer } from './http-client.ts';

/** Active HTTP checks: each sends a few ordinary requests per web port. */
type Probe = (net: Net, svc: Service, host: HostFacts) => Promise<string | null>;

function active(
  id: string,
  shortid: string,
  title: string,
  risk: Risk,
  type: 'HOLE' | 'NOTE',
  description: string,
  solution: string,
  probe: Probe,
): Check {
  return {
    id,
    shortid,
    title,
    category: 'Web Servers',
    risk,
    cves: [],
    type,
    description,
    solution,
    intrusive: false,
    dos: false,
    active: true,
    async run(host: HostFacts, net: Net): Promise<Finding[]> {
      const findings: Finding[] = [];
      for (const svc of host.services.filter(isHttpService)) {
        const detail = await probe(net, svc, host).catch(() => null);
        if (detail) findings.push({ port: svc.port, detail });
      }
      return findings;
    },
  };
}

const get = (net: Net, svc: Service, path: string) => httpRequest(net, svc.port, usesTls(svc), { target: path });
const notHtml = (a: HttpAnswer) => !/<html|<!doctype/i.test(a.body.slice(0, 512));
const first = (s: string) => s.split(/\r?\n/)[0]!.slice(0, 80);

/** Mask values in quoted secrets: the report must not carry them. */
const maskEnv = (body: string) =>
  body
    .split(/\r?\n/)
    .filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l))
    .slice(0, 5)
    .map((l) => `${l.split('=')[0]}=…`)
    .join(', ');

const targetHost = (address: string, port: number) =>
  address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;

/**
 * Open proxy, only ever toward the audited address itself: ask this port,
 * in absolute form, for another open port of the same host and see
 * whether we get that port's answer instead of this server's own page.
 * CONNECT to that port answered 2xx is a proxy too.
 */
async function proxyProbe(net: Net, svc: Service, host: HostFacts): Promise<string | null> {
  const tls = usesTls(svc);
  const others = host.services.filter((s) => s.port !== svc.port && isHttpService(s) && !usesTls(s)).slice(0, 2);
  for (const other of others) {
    const direct = await get(net, other, '/');
    const own = await get(net, svc, '/');
    const marker = direct?.body.replace(/\s+/g, ' ').trim().slice(0, 64);
    if (!direct || !own || !marker || marker.length < 8 || own.body.replace(/\s+/g, ' ').includes(marker)) continue;
    const target = targetHost(net.address, other.port);
    const proxied = await httpRequest(net, svc.port, tls, { target: `http://${target}/`, host: target });
    if (proxied && proxied.status === direct.status && proxied.body.replace(/\s+/g, ' ').includes(marker)) {
      return `GET http://${target}/ sent to port ${svc.port} returned port ${other.port}'s own page: the server forwards requests for other hosts.`;
    }
  }
  const port = others[0]?.port ?? svc.port;
  const target = targetHost(net.address, port);
  const connect = await httpRequest(net, svc.port, tls, { method: 'CONNECT', target, host: target, timeoutMs: 4000 });
  if (connect && connect.status >= 200 && connect.status < 300)
    return `CONNECT ${target} answered HTTP ${connect.status}: the server opens tunnels.`;
  return null;
}

export const HTTP_PROBE_CHECKS: readonly Check[] = [
  active(
    'vigil.http.trace',
    'HTTP-TRACE',
    'HTTP TRACE method enabled',
    'medium',
    'NOTE',
    'The server echoes TRACE requests, headers included (Cross-Site Tracing can expose cookies and auth headers to scripts).',
    'Disable TRACE (Apache: TraceEnable off; other servers: refuse the method in the server or proxy configuration).',
    async (net, svc) => {
      const mark = randomBytes(8).toString('hex');
      const a = await httpRequest(net, svc.port, usesTls(svc), { method: 'TRACE', headers: { 'X-Vigil-Trace': mark } });
      return a && a.status === 200 && a.body.includes(mark)
        ? `TRACE / answered HTTP 200 and echoed our X-Vigil-Trace header.`
        : null;
    },
  ),
  active(
    'vigil.http.git-exposed',
    'HTTP-GIT',
    'Git repository exposed (/.git/)',
    'high',
    'HOLE',
    'The web root contains a .git directory: anyone can download the source code, its history and any secrets committed to it.',
    'Remove the .git directory from the web root, or deny /.git in the server configuration (Apache: RedirectMatch 404 /\\.git; nginx: location ~ /\\.git { deny all; }).',
    async (net, svc) => {
      const a = await get(net, svc, '/.git/HEAD');
      if (a && a.status === 200 && /^(ref: refs\/\S+|[0-9a-f]{40})\s*$/m.test(a.body.slice(0, 200)))
        return `/.git/HEAD: ${first(a.body.trim())}`;
      // HEAD denied or absent but config served (a partial copy, or a deny rule on HEAD only): git's own config format.
      const c = await get(net, svc, '/.git/config');
      return c &&
        c.status === 200 &&
        notHtml(c) &&
        /^\[core\]\s*$/m.test(c.body) &&
        /repositoryformatversion\s*=/.test(c.body)
        ? '/.git/config is readable ([core] repositoryformatversion).'
        : null;
    },
  ),
  active(
    'vigil.http.env-exposed',
    'HTTP-ENV',
    'Environment file exposed (/.env)',
    'high',
    'HOLE',
    'The web root serves a .env file, which usually holds database passwords and API keys.',
    'Move the .env file out of the web root or deny it in the server configuration, and rotate the secrets it held.',
    async (net, svc) => {
      const a = await get(net, svc, '/.env');
      if (!a || a.status !== 200 || !notHtml(a)) return null;
      const keys = a.body.split(/\r?\n/).filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l));
      return keys.length >= 2 ? `/.env is readable (${keys.length} settings, e.g. ${maskEnv(a.body)}).` : null;
    },
  ),
  active(
    'vigil.http.server-status',
    'HTTP-SERVER-STATUS',
    'Apache server-status page exposed',
    'medium',
    'NOTE',
    'mod_status is reachable by anyone: it shows client addresses, requested URLs and virtual hosts.',
    'Restrict /server-status to administrators (Apache: <Location /server-status> Require ip <admin network>) or unload mod_status.',
    async (net, svc) => {
      const a = await get(net, svc, '/server-status');
      return a && a.status === 200 && /Apache Server Status for/i.test(a.body)
        ? '/server-status shows the Apache status page.'
        : null;
    },
  ),
  active(
    'vigil.http.open-proxy',
    'HTTP-OPEN-PROXY',
    'Web server acts as an open proxy',
    'high',
    'HOLE',
    'The server forwards requests for other hosts (absolute-form GET or CONNECT), so anyone can relay traffic through it to reach internal services or hide their origin.',
    'Disable forward proxying in the proxy configuration (Apache: ProxyRequests Off; Squid: http_access deny all but local clients; nginx: no proxy_pass to the requested host).',
    proxyProbe,
  ),
];
