import { defineCheck } from '../kit.ts';
import { probeOpenRelay } from '../../proto/smtp.ts';

export default defineCheck({
  id: 'vigil.smtp.open-relay',
  shortid: 'SMTP-RELAY',
  title: 'SMTP server relays mail for anyone',
  family: 'Mail',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  cves: ['CVE-1999-0512'],
  type: 'HOLE',
  description:
    'The mail server accepts a recipient in a foreign domain from an unauthenticated sender in another foreign domain: spammers can send through it and get it block-listed.',
  solution:
    'Relay only for your own domains and authenticated users (Postfix: smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination).',
  ports: { services: ['smtp', 'submission'], ports: [25, 587, 2525] },
  run: ({ net, port }) => probeOpenRelay(net, port),
});
