import { defineCheck } from '../kit.ts';
import { usesTls } from '../../proto/http.ts';
import { sharedPrinters, speaksIpp } from '../../proto/ipp.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A print server or printer that answers IPP queries from anyone (CUPS
 * with `Browsing`/shared queues and `Allow all` on /, a network printer's
 * IPP service): the queues, their make and model, location and
 * description come back, what nmap's cups-info and cups-queue-info print
 * and what the same unauthenticated client could send jobs to. Only
 * read-only operations are sent (CUPS-Get-Printers, Get-Printer-Attributes,
 * proto/ipp.ts); a refusal (HTTP 403/401, client-error-forbidden) is not
 * reported.
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
    const r = await sharedPrinters(net, port, service ? usesTls(service) : false);
    if (!r) return null;
    const one = (p: Record<string, string[]>) =>
      [
        p['printer-name']?.[0],
        p['printer-make-and-model']?.[0] && `model "${p['printer-make-and-model'][0]}"`,
        p['printer-location']?.[0] && `location "${p['printer-location'][0]}"`,
      ]
        .filter(Boolean)
        .join(', ');
    const list = r.printers.slice(0, 5).map((p) => shown(one(p), 120));
    return `IPP ${r.operation}, without credentials, was answered successful-ok with ${r.printers.length} printer${r.printers.length > 1 ? 's' : ''}: ${list.join('; ')}${r.printers.length > 5 ? '; …' : ''}.`;
  },
});
