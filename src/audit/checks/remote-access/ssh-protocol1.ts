import { defineCheck } from '../kit.ts';
import type { Service } from '../../engine/types.ts';
import { shown } from '../../proto/talk.ts';

/** An SSH identification line of protocol 1 (SSH-1.5-, SSH-1.99- …), as detection read it. */
const ssh1Banner = (s: Service) => /^SSH-1\.\d+-/.test(s.banner ?? '');

export default defineCheck({
  id: 'vigil.ssh.protocol1',
  shortid: 'SSH-V1',
  title: 'SSH protocol version 1 supported',
  family: 'Remote Access',
  categories: ['safe', 'passive', 'vuln', 'default'],
  risk: 'high',
  cves: ['CVE-2001-0572', 'CVE-2001-1473'],
  type: 'HOLE',
  description: 'SSH protocol 1 has broken integrity protection and known session-hijacking attacks.',
  solution:
    'Allow SSH protocol 2 only (sshd_config: Protocol 2, or upgrade to OpenSSH 7.4 or later, which has no protocol 1).',
  ports: { where: ssh1Banner },
  run: async ({ service }) => `identification: ${shown(service!.banner!.split(/\r?\n/)[0]!, 80)}`,
});
