import { defineCheck } from '../kit.ts';
import { httpRequest, usesTls } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';
import { speaksIpp } from '../../proto/ipp.ts';

/** The administration page of every CUPS 1.x-2.x web interface: its title (templates/header.tmpl.in). */
const ADMIN_PAGE = /<TITLE>\s*(Administration - CUPS[^<]*)<\/TITLE>/i;
/** cupsd.conf as served by /admin/conf/cupsd.conf: its directives, whatever the comments say. */
const CONF = /^\s*(?:Listen|Port|<Location\s|LogLevel|Browsing|DefaultAuthType|WebInterface)\b.*$/m;

/**
 * CUPS remote administration: the /admin pages answered to a client that
 * is not local without a login (cupsd.conf `Allow all` or `Allow @ALL` in
 * <Location /admin>, no AuthType), what `cupsctl --remote-admin` turns on.
 * Proof: the Administration page itself (HTTP 200 and its title); the
 * configuration file /admin/conf/cupsd.conf read as well (its directives
 * quoted) makes it high. A 401 (a login is asked), 403 or 426 (TLS
 * required) is not reported. Only GETs are sent.
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
    const admin = await httpRequest(net, port, tls, { target: '/admin' });
    const title = admin?.status === 200 ? ADMIN_PAGE.exec(admin.body) : null;
    if (!title) return null;
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
