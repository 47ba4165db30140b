import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { httpRequest, isHttpService, usesTls } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.trace',
  shortid: 'HTTP-TRACE',
  title: 'HTTP TRACE method enabled',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'The server echoes TRACE requests, headers included (Cross-Site Tracing can expose cookies and auth headers to scripts).',
  solution:
    'Disable TRACE (Apache: TraceEnable off; other servers: refuse the method in the server or proxy configuration).',
  ports: { where: isHttpService },
  async run({ net, service }) {
    const svc = service!;
    const mark = randomBytes(8).toString('hex');
    const a = await httpRequest(net, svc.port, usesTls(svc), { method: 'TRACE', headers: { 'X-Vigil-Trace': mark } });
    return a && a.status === 200 && a.body.includes(mark)
      ? `TRACE / answered HTTP 200 and echoed our X-Vigil-Trace header.`
      : null;
  },
});
