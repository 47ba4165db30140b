import { defineCheck } from '../kit.ts';
import { provenGet } from './lib/probes.ts';
import { isHttpService } from '../../proto/http.ts';

/**
 * mod_status of any server that has one (Apache httpd, lighttpd), keyed on
 * the page's content: Apache's HTML heading, lighttpd's HTML heading and
 * table, or the machine-readable `?auto` form both write ("Total Accesses:
 * N", "Uptime: N", one per line: mod_status.c of each). nginx stub_status
 * and PHP-FPM status are rows of data/web-content.ts (vigil.http.status-page).
 */
const PAGES: [RegExp, string][] = [
  [/Apache Server Status for/i, 'the Apache mod_status page'],
  [/<h1>Server-Status \([^)]*\)<\/h1>[\s\S]*absolute \(since start\)/, 'the lighttpd mod_status page'],
];
const AUTO = /^Total Accesses: \d+\s*$[\s\S]*^Uptime: \d+\s*$/m;

export default defineCheck({
  id: 'vigil.http.server-status',
  shortid: 'HTTP-SERVER-STATUS',
  title: 'server-status page exposed (Apache, lighttpd mod_status)',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    "The web server's mod_status page is reachable by anyone: it shows the load and uptime, and (Apache, lighttpd) client addresses, requested URLs and virtual hosts.",
  solution:
    'Restrict /server-status to administrators (Apache: <Location /server-status> Require ip <admin network>; lighttpd: status.status-url inside a $HTTP["remoteip"] condition) or unload mod_status.',
  ports: { where: isHttpService },
  async run({ net, service }) {
    const svc = service!;
    const which = (body: string) => PAGES.find(([sig]) => sig.test(body))?.[1];
    // Each page only where a random path does not answer the same (lib/probes.ts: soft-200 servers).
    const a = await provenGet(net, svc, '/server-status', (x) => !!which(x.body));
    if (a) return `/server-status shows ${which(a.body)}.`;
    const auto = await provenGet(
      net,
      svc,
      '/server-status?auto',
      (a) => !/<html/i.test(a.body.slice(0, 512)) && AUTO.test(a.body),
    );
    return auto
      ? `/server-status?auto answers with the mod_status counters ("${auto.body.split('\n')[0]!.trim().slice(0, 60)}" …).`
      : null;
  },
});
