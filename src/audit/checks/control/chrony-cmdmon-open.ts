import { chronyTracking } from '../../proto/chrony.ts';
import { defineCheck } from '../kit.ts';

/**
 * chronyd's command port (UDP 323) answering the scanner's address: its
 * default admits only 127.0.0.1 and ::1 and drops everyone else unanswered,
 * so any reply to a `tracking` request proves a `cmdallow` for the scanner.
 * Only a reply with status success is a finding (a refusal is not).
 * chronyd pads requests to the reply's length and never answers with more
 * (candm.h, protocol version 6), so this is a disclosure, not an
 * amplifier; the detail gives both sizes.
 */
export default defineCheck({
  id: 'vigil.chrony.cmdmon-open',
  shortid: 'CHRONY-CMDMON-OPEN',
  title: 'chrony command port answers monitoring requests from the network',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    "chronyd's command and monitoring port (cmdmon) answers requests from the network: anyone allowed by its cmdallow list can read the clock's reference, offsets and drift (tracking), every time source with its address (sources), and the NTP clients the server has seen (clients), which maps the time infrastructure and its users.",
  solution:
    'Remove cmdallow lines from chrony.conf (the default admits only the local host) and keep bindcmdaddress at 127.0.0.1 and ::1, or set cmdport 0 to close the port.',
  references: ['https://chrony-project.org/doc/4.3/chrony.conf.html#cmdallow'],
  ports: { udp: [323] },
  run: async ({ net, port }) => {
    const t = await chronyTracking(net, port);
    if (!t || t.status !== 0) return null;
    return `UDP ${port}: a ${t.sent}-byte cmdmon request "tracking" (REQ_TRACKING, protocol 6) was answered with status success and ${t.received} bytes: reference ID ${t.refId}, stratum ${t.stratum}, leap status ${t.leap}.`;
  },
});
