import { defineCheck } from '../kit.ts';
import { usesTls } from '../../proto/http.ts';
import { sharedPrinters, speaksIpp } from '../../proto/ipp.ts';
import { shown } from '../../proto/talk.ts';
import type { Net } from '../../engine/types.ts';
import {
  adminPage,
  adminSettings,
  bestLocation,
  checkedSettings,
  cupsGet,
  hostRetried,
  isLoopback,
  LOCALHOST,
  openToNetwork,
  quoted,
  servedConf,
} from '../../proto/cups.ts';

const one = (p: Record<string, string[]>) =>
  [
    p['printer-name']?.[0],
    p['printer-make-and-model']?.[0] && `model "${p['printer-make-and-model'][0]}"`,
    p['printer-location']?.[0] && `location "${p['printer-location'][0]}"`,
  ]
    .filter(Boolean)
    .join(', ');
const listed = (printers: Record<string, string[]>[]) =>
  `${printers
    .slice(0, 5)
    .map((p) => shown(one(p), 120))
    .join('; ')}${printers.length > 5 ? '; …' : ''}`;

/**
 * A cupsd on a loopback address that refuses the address as Host
 * (proto/cups.ts): asked with `Host: localhost` it lists every queue to a
 * loopback client, shared or not, whatever its rules say. Reported only
 * on its own word: queues marked printer-is-shared, and the cupsd.conf it
 * serves admitting clients from the network where those queues are
 * (<Location /printers/…> or /), or else the settings its Administration
 * page states ("Share printers" or "Allow printing from the Internet"
 * checked). Neither, and nothing is reported.
 */
async function viaLocalhost(net: Net, port: number, tls: boolean) {
  if (!isLoopback(net.address) || !(await cupsGet(net, port, tls, '/')).host) return null;
  const r = await sharedPrinters(net, port, tls, LOCALHOST);
  const shared = r?.printers.filter((p) => p['printer-is-shared']?.[0] === '1') ?? [];
  if (!r || !shared.length) return null;
  const queues = `IPP ${r.operation} answered ${r.printers.length} printer${r.printers.length > 1 ? 's' : ''}, ${shared.length} marked printer-is-shared: ${listed(shared)}`;
  const conf = await servedConf(net, port, tls, LOCALHOST);
  const rules = conf && openToNetwork(bestLocation(conf, `/printers/${shared[0]!['printer-name']![0]}`));
  if (rules)
    return `${hostRetried(net, port)}: ${queues}; and GET /admin/conf/cupsd.conf, without credentials, was answered HTTP 200 with a cupsd.conf that admits clients from the network to them and requires no login (${quoted(rules)}).`;
  // No configuration served: the settings the Administration page states (proto/cups.ts adminSettings).
  const settings = adminSettings((await adminPage(net, port, tls)) ?? '');
  const on = settings ? checkedSettings(settings, ['SHARE_PRINTERS', 'REMOTE_ANY']) : [];
  if (!on.length) return null;
  return `${hostRetried(net, port)} as its own pages state it: ${queues}; and GET /admin answered, without credentials, the server settings its admin CGI reads from cupsd.conf, ${on.join(', ')}: clients from the network reach those queues.`;
}

/**
 * A print server or printer that answers IPP queries from anyone (CUPS
 * with `Browsing`/shared queues and `Allow all` on /, a network printer's
 * IPP service): the queues, their make and model, location and
 * description come back, what nmap's cups-info and cups-queue-info print
 * and what the same unauthenticated client could send jobs to. Only
 * read-only operations are sent (CUPS-Get-Printers, Get-Printer-Attributes,
 * proto/ipp.ts); a refusal (HTTP 403/401, client-error-forbidden) is not
 * reported. A cupsd on a loopback address that refuses the address as
 * Host is asked with `Host: localhost` and judged by its own word
 * (viaLocalhost).
 */
export default defineCheck({
  id: 'vigil.ipp.printers-shared',
  shortid: 'IPP-SHARED',
  title: 'Printers shared to anyone over IPP',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The IPP service (CUPS or a printer) answers anyone who asks with its print queues, their models, locations and descriptions, and the same unauthenticated client may send print jobs to them (paper and toner spam, and an open door to every flaw of the printing stack).',
  solution:
    'Share printers only with the local network (CUPS: Browsing No or `Allow @LOCAL` in <Location />, and `Listen localhost:631` on servers that print only locally; printers: restrict IPP to the print server), and firewall TCP 631 from the Internet.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc8011#section-4.2.5',
    'https://nmap.org/nsedoc/scripts/cups-queue-info.html',
  ],
  ports: { services: ['ipp'], ports: [631], where: speaksIpp },
  run: async ({ net, port, service }) => {
    const tls = service ? usesTls(service) : false;
    const r = await sharedPrinters(net, port, tls);
    if (!r) return viaLocalhost(net, port, tls);
    return `IPP ${r.operation}, without credentials, was answered successful-ok with ${r.printers.length} printer${r.printers.length > 1 ? 's' : ''}: ${listed(r.printers)}.`;
  },
});
