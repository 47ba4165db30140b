import { holdsSlowRequest, isHttpService, SLOW_HOLD_MS, SLOW_TRICKLE_MS, usesTls } from '../../proto/http.ts';
import { defineCheck } from '../kit.ts';

/** Slow request headers (slowloris), measured with one connection per port, on two ports at most. */
export default defineCheck({
  id: 'vigil.dos.http-slow-request',
  shortid: 'DOS-HTTP-SLOW',
  title: 'Web server waits long for request headers (slowloris)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The server kept a request whose headers arrive one line every few seconds open for the whole test: a client holding many such requests can tie up every worker (slowloris). ' +
    'Whether that exhausts the server depends on its connection model, which one connection cannot show, so this is reported at a quality of detection of 50 (as nmap\'s http-slowloris-check says "LIKELY VULNERABLE").',
  solution:
    'Bound the time for request headers (Apache: RequestReadTimeout header=5-20,MinRate=500; nginx: client_header_timeout 5s) and the connections per client.',
  qod: 50,
  ports: { where: isHttpService, max: 2 },
  async run({ net, port, service }) {
    if (!(await holdsSlowRequest(net, port, !!service && usesTls(service)))) return null;
    return `A request sending one header line every ${SLOW_TRICKLE_MS / 1000} s was still open after ${SLOW_HOLD_MS / 1000} s.`;
  },
});
