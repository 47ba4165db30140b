import { defineCheck } from '../kit.ts';
import { shown } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.vnc.exposed',
  shortid: 'VNC-EXPOSED',
  title: 'VNC remote desktop reachable',
  family: 'Remote Access',
  categories: ['safe', 'passive', 'desktop', 'discovery'],
  risk: 'other',
  type: 'LOG',
  description:
    'A VNC server is reachable. Whether that is a weakness depends on what it offers: see the VNC authentication and encryption checks.',
  solution:
    'Reach VNC only through an SSH tunnel or VPN, and let the server listen on localhost or the private network only.',
  ports: { services: ['vnc'] },
  run: async ({ service }) => `VNC (${shown(service?.extra.protocol ?? service?.banner ?? 'RFB', 40)}) answers`,
});
