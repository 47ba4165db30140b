import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Forward } from '../dns/server/serving-set.ts';
import { capHttpConnections, serverOptions, type TransportLimits } from '../net/http-limits.ts';

export interface ForwardFinder {
  forwardFor(host: string): Forward | undefined;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page of a cloaked forwarding: the target in a full-window frame, the host's name kept in the address bar. */
export function cloakPage(host: string, target: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(host)}</title>
<style>html,body,iframe{margin:0;padding:0;border:0;width:100%;height:100%;overflow:hidden}</style></head>
<body><iframe src="${escapeHtml(target)}" title="${escapeHtml(host)}"></iframe></body></html>
`;
}

/**
 * The web forwarder: plain HTTP for hosts with a WebForwarding record
 * (their A/AAAA answer points here): 301 to the target, or with cloak a
 * page that frames it. Served versions only, like the name server.
 *
 * It faces the open internet like the API, so it has the API's slow-client
 * limits (issue 28: 150 slow connections from one address stayed open, and
 * at a descriptor limit of 400 they took every descriptor of the process):
 * the `--request-timeout` budget for a request's head, 5 s of keep-alive,
 * `--max-connections-per-ip`, and a total that sheds the connection longest
 * unserved (docs/security.md, "Slow clients and connection limits").
 * Errors Node's parser finds (a timeout, bad syntax) get Node's own plain
 * 400/408/431: the forwarder has no JSON error shape to keep.
 */
export function forwardServer(finder: ForwardFinder, logger: Logger, limits: TransportLimits): Server {
  const server = createServer(serverOptions(limits), (req, res) => {
    const host = String(req.headers.host ?? '')
      .replace(/:\d+$/, '')
      .replace(/\.$/, '')
      .toLowerCase();
    const forward = finder.forwardFor(host);
    if (!forward) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('no web forwarding for this host\n');
    } else if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (forward.cloak) {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' })
        .end(cloakPage(host, forward.target));
    } else {
      res
        .writeHead(301, { location: forward.target, 'content-type': 'text/plain; charset=utf-8' })
        .end(`moved to ${forward.target}\n`);
    }
    logger.debug({ host, status: res.statusCode }, 'forward');
  });
  capHttpConnections(server, limits, logger, 'forward');
  return server;
}
