import { SANE_PORT, saneDevices } from '../../proto/sane.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

/**
 * A SANE network daemon (saned) that lets this scanner in: SANE_NET_INIT
 * answered SANE_STATUS_GOOD, and SANE_NET_GET_DEVICES lists its scanners.
 * saned's only gate is its host list (saned.conf); past it, any client
 * opens a device and scans whatever lies on the glass. Decision: low, a
 * NOTE: the exposure is the paper left in a scanner and the scanner
 * itself, not the host. A daemon that answers ACCESS_DENIED, or grants
 * INIT but has no device to list, is not reported. No device is opened.
 */
export default defineCheck({
  id: 'vigil.sane.open',
  shortid: 'SANE-OPEN',
  title: 'Network scanner server (saned) open to anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The SANE network daemon accepts this scanner as a client and lists its image scanners: any host that reaches the port may open them and scan whatever document lies on the glass or in the feeder, and learn the models attached.',
  solution:
    'List only the client hosts or networks that scan in /etc/sane.d/saned.conf (no `+`), run saned through its systemd socket or inetd only where needed, and firewall TCP 6566 (and the data ports of saned.conf `data_portrange`) from untrusted networks.',
  references: ['https://manpages.debian.org/saned.8', 'https://sane-project.gitlab.io/standard/net.html'],
  ports: { services: ['sane-port', 'sane'], ports: [SANE_PORT] },
  run: async ({ net, port }) => {
    const r = await saneDevices(net, port);
    if (!r || r.init.status !== 0 || !r.devices?.length) return null;
    const list = r.devices.slice(0, 5).map((d) => `${d.name} (${d.vendor} ${d.model}, ${d.type})`);
    return `SANE_NET_INIT (user "vigil") was answered SANE_STATUS_GOOD (server version code ${r.init.version}), and SANE_NET_GET_DEVICES listed ${r.devices.length} scanner${r.devices.length === 1 ? '' : 's'}: ${shown(list.join('; '), 300)}.`;
  },
});
