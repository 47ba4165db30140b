import { defineCheck } from '../kit.ts';

export default defineCheck({
  id: 'vigil.rdp.exposed',
  shortid: 'RDP-EXPOSED',
  title: 'Remote Desktop (RDP) reachable',
  family: 'Windows',
  categories: ['safe', 'passive', 'desktop', 'discovery'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'Remote Desktop is reachable: it is a favourite target of password guessing and of worms (BlueKeep, CVE-2019-0708).',
  solution: 'Put it behind a VPN or gateway and require Network Level Authentication.',
  ports: { services: ['ms-wbt-server', 'rdp'], ports: [3389] },
  run: async ({ port }) => `Remote Desktop (RDP) answers on port ${port}`,
});
