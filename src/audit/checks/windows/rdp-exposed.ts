import { defineCheck } from '../kit.ts';

export default defineCheck({
  id: 'vigil.rdp.exposed',
  shortid: 'RDP-EXPOSED',
  title: 'Remote Desktop (RDP) reachable',
  family: 'Windows',
  categories: ['safe', 'passive', 'desktop', 'discovery'],
  // Information, as VNC's reachability is: a server that requires TLS or NLA is how RDP is hardened, and
  // what it accepts is judged by vigil.rdp.standard-security (Nessus reports RDP detection as info too).
  risk: 'other',
  type: 'LOG',
  description:
    'Remote Desktop is reachable: it is a favourite target of password guessing and of worms (BlueKeep, CVE-2019-0708). Whether it is a weakness depends on what it accepts: see the Standard RDP Security check.',
  solution: 'Put it behind a VPN or gateway and require Network Level Authentication.',
  ports: { services: ['ms-wbt-server', 'rdp'], ports: [3389] },
  run: async ({ port }) => `Remote Desktop (RDP) answers on port ${port}`,
});
