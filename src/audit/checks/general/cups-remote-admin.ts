import { defineCheck } from '../kit.ts';
import { httpRequest, usesTls } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';
import { speaksIpp } from '../../proto/ipp.ts';
import {
  adminPage,
  adminSettings,
  bestLocation,
  checkedSettings,
  CONF_DIRECTIVE as CONF,
  cupsGet,
  hostRetried,
  LOCALHOST,
  openToNetwork,
  quoted,
  servedConf,
} from '../../proto/cups.ts';
import type { Net } from '../../engine/types.ts';

/** The administration page of every CUPS 1.x-2.x web interface: its title (templates/header.tmpl.in). */
const ADMIN_PAGE = /<TITLE>\s*(Administration - CUPS[^<]*)<\/TITLE>/i;

/**
 * A cupsd on a loopback address that took us only with `Host: localhost`
 * (proto/cups.ts): it lets a loopback client through whatever its rules
 * say, so the page proves nothing by itself; the proof is its own
 * configuration: the cupsd.conf it serves, <Location /admin> admitting the
 * network with no Require, or else (a login for /admin/conf, as
 * `cupsctl --remote-admin` leaves it) the settings its Administration page
 * states, "Allow remote administration" checked. A server whose page says
 * it is off (Debian's default) is not reported.
 */
async function viaLocalhost(net: Net, port: number, tls: boolean, page: string) {
  const conf = await servedConf(net, port, tls, LOCALHOST);
  const admin = conf && openToNetwork(bestLocation(conf, '/admin'));
  if (conf && admin) {
    const own = openToNetwork(bestLocation(conf, '/admin/conf'));
    return {
      detail: `${hostRetried(net, port)}: GET /admin/conf/cupsd.conf, without credentials, was answered HTTP 200 with a cupsd.conf whose <Location /admin> admits clients from the network and requires no login (${quoted(admin)})${own ? `, as its <Location /admin/conf> does (${quoted(own)}): the configuration file is readable from the network too` : ''}. GET /admin answered the page "${shown(page, 60)}".`,
      risk: own ? ('high' as const) : ('medium' as const),
    };
  }
  const settings = adminSettings((await adminPage(net, port, tls)) ?? '');
  const on = settings ? checkedSettings(settings, ['REMOTE_ADMIN']) : [];
  if (!on.length) return null;
  return `${hostRetried(net, port)} as its own pages state it: GET /admin answered, without credentials, the page "${shown(page, 60)}" with the server settings its admin CGI reads from cupsd.conf, ${on.join(', ')}: <Location /admin> admits clients from the network.${conf ? '' : ' /admin/conf/cupsd.conf itself was not served without a login.'}`;
}

/**
 * CUPS remote administration: the /admin pages answered to a client that
 * is not local without a login (cupsd.conf `Allow all` or `Allow @ALL` in
 * <Location /admin>, no AuthType), what `cupsctl --remote-admin` turns on.
 * Proof: the Administration page itself (HTTP 200 and its title); the
 * configuration file /admin/conf/cupsd.conf read as well (its directives
 * quoted) makes it high. A 401 (a login is asked), 403 or 426 (TLS
 * required) is not reported. Only GETs are sent. A cupsd on a loopback
 * address that refuses the address as Host is asked with `Host: localhost`
 * and reported only on its configuration (viaLocalhost).
 */
export default defineCheck({
  id: 'vigil.cups.remote-admin',
  shortid: 'CUPS-ADMIN',
  title: 'CUPS administration open to the network without a login',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description:
    "The CUPS web interface's administration pages answer clients from the network without asking for a login: printers, classes, jobs and server settings are offered to anyone who reaches the port, and where the configuration file is readable too, the whole server setup is.",
  solution:
    'Turn remote administration off (cupsctl --no-remote-admin, i.e. no `Allow` beyond localhost in <Location /admin> and <Location /admin/conf>), keep `AuthType Default` and `Require user @SYSTEM` on the admin locations, and firewall TCP 631.',
  references: ['https://www.cups.org/doc/man-cupsd.conf.html', 'https://nmap.org/nsedoc/scripts/cups-info.html'],
  ports: { services: ['ipp'], ports: [631], where: speaksIpp },
  run: async ({ net, port, service }) => {
    const tls = service ? usesTls(service) : false;
    const { answer: admin, host } = await cupsGet(net, port, tls, '/admin');
    const title = admin?.status === 200 ? ADMIN_PAGE.exec(admin.body) : null;
    if (!title) return null;
    if (host) return viaLocalhost(net, port, tls, title[1]!);
    const said = `GET /admin without credentials was answered HTTP 200 with the page "${shown(title[1]!, 60)}"`;
    const conf = await httpRequest(net, port, tls, { target: '/admin/conf/cupsd.conf' });
    const line = conf?.status === 200 ? CONF.exec(conf.body) : null;
    if (line)
      return {
        detail: `${said}, and GET /admin/conf/cupsd.conf was answered HTTP 200 with the configuration file ("${shown(line[0], 60)}").`,
        risk: 'high',
      };
    return `${said}.`;
  },
});
