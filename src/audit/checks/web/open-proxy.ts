import { defineCheck } from '../kit.ts';
import { proxyProbe } from './lib/probes.ts';
import { isHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.open-proxy',
  shortid: 'HTTP-OPEN-PROXY',
  title: 'Web server acts as an open proxy',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The server forwards requests for other hosts (absolute-form GET or CONNECT), so anyone can relay traffic through it to reach internal services or hide their origin.',
  solution:
    'Disable forward proxying in the proxy configuration (Apache: ProxyRequests Off; Squid: http_access deny all but local clients; nginx: no proxy_pass to the requested host).',
  ports: { where: isHttpService },
  run: ({ net, service }) => proxyProbe(net, service!),
});
