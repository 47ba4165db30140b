import { defineCheck } from '../kit.ts';
import { isHttpService, usesTls } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';
import { member, members, scalar, xmlRpcCall } from '../../proto/xmlrpc.ts';

/**
 * Supervisor's [inet_http_server] without username and password answers
 * its XML-RPC interface (POST /RPC2) to anyone: the process manager's
 * whole control API (stop, start, signal every process, reload the
 * configuration, read every process's logs). Proof: `supervisor.getState`
 * answered with the daemon's state, without credentials; the version and
 * the process list are quoted beside it. With credentials supervisord
 * answers 401 before reading the call. Only reads are sent.
 *
 * CVE-2017-11610 (any command run through nested XML-RPC names, by a client
 * allowed to call the API) is named only for the versions it affects
 * (supervisor's 3.0.1, 3.1.4, 3.2.4 and 3.3.3 fix it): the version is the
 * one getSupervisorVersion answered, not a banner.
 */
function cve201711610(version: string | null): boolean {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version ?? '');
  if (!m) return false;
  const [maj, min, patch] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (maj < 3) return true;
  if (maj > 3) return false;
  const fixed: Record<number, number> = { 0: 1, 1: 4, 2: 4, 3: 3 };
  return min in fixed && patch < fixed[min]!;
}

export default defineCheck({
  id: 'vigil.supervisor.rpc-open',
  shortid: 'SUPERVISOR-OPEN',
  title: 'Supervisor XML-RPC interface open without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "Supervisor's HTTP interface answered its XML-RPC control API without credentials: anyone who reaches the port can stop, start and signal every process it manages, reload its configuration and read the processes' logs (which often hold secrets).",
  solution:
    'Set username and password in the [inet_http_server] section of supervisord.conf (or use only the [unix_http_server] socket), bind it to 127.0.0.1, and upgrade to supervisor 3.3.3 or later.',
  references: [
    'http://supervisord.org/configuration.html#inet-http-server-section-settings',
    'http://supervisord.org/api.html',
  ],
  ports: { services: ['supervisor', 'supervisord'], ports: [9001], where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const state = await xmlRpcCall(net, port, tls, '/RPC2', 'supervisor.getState');
    const name = state?.response && !state.fault ? member(state.response, 'statename') : null;
    if (!name) return null;
    const v = await xmlRpcCall(net, port, tls, '/RPC2', 'supervisor.getSupervisorVersion');
    const version = v?.response && !v.fault ? scalar(v.response) : null;
    const all = await xmlRpcCall(net, port, tls, '/RPC2', 'supervisor.getAllProcessInfo');
    const procs = all?.response && !all.fault ? members(all.response, 'name') : null;
    const listed = procs
      ? `, supervisor.getAllProcessInfo listed ${procs.length} process${procs.length === 1 ? '' : 'es'}${procs.length ? ` (${shown(procs.slice(0, 6).join(', '), 100)}${procs.length > 6 ? ', …' : ''})` : ''}`
      : '';
    const vulnerable = cve201711610(version);
    return {
      detail: `POST /RPC2 supervisor.getState was answered "${shown(name, 20)}"${version ? `, supervisor.getSupervisorVersion "${shown(version, 20)}"` : ''}${listed}, without credentials${vulnerable ? `; version ${shown(version!, 20)} is affected by CVE-2017-11610 (fixed in 3.0.1, 3.1.4, 3.2.4, 3.3.3)` : ''}.`,
      ...(vulnerable ? { cves: ['CVE-2017-11610'] } : {}),
    };
  },
});
