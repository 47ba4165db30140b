import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiError, RetryLaterError, TRANSPORT_CODES, type ErrorCode, type TransportCode } from '../errors.ts';
import type { Services } from './call.ts';
import { capHttpConnections, clientErrorHandler, serverOptions, type TransportLimits } from './transport.ts';
import { parseForm } from './form.ts';
import { codeOf, failure, successText } from './reply.ts';
import { resolveScript } from './scripts.ts';
import { checkBeforeRun, unknownFields } from './validate.ts';
import { openApiText } from './openapi.ts';
import { registerConsole } from '../console/routes.ts';
import { isStoreUnreachable } from '../store/failures.ts';
import type { Metrics } from '../metrics.ts';

/** Large enough for a 10,000-character field percent-encoded, small enough to bound memory. */
export const BODY_LIMIT = 256 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

declare module 'fastify' {
  interface FastifyRequest {
    apiCode: ErrorCode | null;
    script: string | null;
    /** The account's userid once the session (token or API key) is authenticated. */
    userid: string | null;
  }
}

function transportFailure(reply: FastifyReply, code: TransportCode) {
  return reply.code(TRANSPORT_CODES[code]).send(failure(code));
}

/** When a caller does not pass the configuration: the defaults of src/config.ts. */
const DEFAULT_LIMITS: TransportLimits = { requestTimeoutMs: 30_000, maxConnectionsPerIp: 64 };

/**
 * Settings both listeners share: JSON-only errors (transport errors too,
 * see transport.ts), one log line per request, no 5xx, and the slow-client
 * limits: one time budget per request and per-address connection caps.
 */
function baseServer(
  logger: Logger,
  https: { key: string; cert: string } | null,
  limits: TransportLimits,
  metrics?: Metrics,
): FastifyInstance {
  const options = serverOptions(limits);
  const app = (Fastify as any)({
    loggerInstance: logger,
    // A path Fastify cannot decode gets the JSON error shape too.
    frameworkErrors: (_err: unknown, _req: unknown, reply: FastifyReply) =>
      https ? transportFailure(reply, 'unknownScript') : reply.send(failure('notSSL')),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Node's server options ride along with the certificate (https) or alone (http).
    https: https ? { ...https, ...options } : null,
    http: options,
    // Fastify sets these two on the server itself after creating it: the same values again.
    requestTimeout: options.requestTimeout,
    keepAliveTimeout: options.keepAliveTimeout,
    clientErrorHandler: clientErrorHandler(logger, Math.max(2_000, limits.requestTimeoutMs)),
    return503OnClosing: false,
  }) as FastifyInstance;
  capHttpConnections(app.server, limits, logger, https ? 'https' : 'http');
  app.decorateRequest('apiCode', null);
  app.decorateRequest('script', null);
  app.decorateRequest('userid', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const type = String(req.headers['content-type'] ?? '');
    if (type !== '' && !FORM_TYPE.test(type)) return done(new ApiError('unsupportedMediaType'), undefined);
    done(null, body);
  });
  app.setErrorHandler((err: any, req, reply) => {
    const code = codeOf(err);
    if (code && code in TRANSPORT_CODES) return transportFailure(reply, code as TransportCode);
    if (err?.statusCode === 413) return transportFailure(reply, 'requestTooLarge');
    if (err?.statusCode === 415) return transportFailure(reply, 'unsupportedMediaType');
    if (err?.statusCode && err.statusCode < 500) return transportFailure(reply, 'malformedRequest');
    req.log.error({ err }, 'unexpected transport error');
    return transportFailure(reply, 'malformedRequest');
  });
  app.setNotFoundHandler((_req, reply) => transportFailure(reply, 'unknownScript'));
  // One line per request; bodies (passwords, keys, tokens) are never logged.
  // Hooks on every request take Fastify's callback form: an async hook costs
  // a promise and a trip through the microtask queue each.
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(
      {
        script: req.script,
        userid: req.userid ?? undefined,
        http: reply.statusCode,
        error: req.apiCode ?? undefined,
        client: req.ip,
        ms: Math.round(reply.elapsedTime),
      },
      'api',
    );
    // The console's page and assets (src/console/) are not API calls: not counted as one.
    if (req.url.startsWith('/api/')) metrics?.api(req.script, req.apiCode, reply.elapsedTime / 1000);
    done();
  });
  // Drain: requests in flight at close are answered, then their connection
  // is closed rather than kept alive for the keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    if (reply.statusCode !== 200 && req.apiCode === null && typeof payload === 'string') {
      try {
        req.apiCode = JSON.parse(payload).error ?? null;
      } catch {}
    }
    done(null, payload);
  });
  return app;
}

/** The HTTPS API: the script table behind the transport rules of spec section 1. */
export function apiServer(
  services: Services,
  logger: Logger,
  tls: { key: string; cert: string },
  metrics?: Metrics,
): FastifyInstance {
  const app = baseServer(logger, tls, services.config ?? DEFAULT_LIMITS, metrics);
  // A wildcard, not a `:script` parameter: Fastify caps parameter length
  // with an error of its own shape; here any name is just looked up.
  app.get('/api/openapi.json', (_req, reply) => reply.type(JSON_TYPE).send(openApiText()));
  registerConsole(app);
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
    url: '/api/*',
    handler: (_req, reply) => transportFailure(reply, 'methodNotAllowed'),
  });
  app.post('/api/*', async (req: FastifyRequest<{ Params: { '*': string } }>, reply) => {
    const name = req.params['*'];
    const form = parseForm(typeof req.body === 'string' ? req.body : '');
    const script = resolveScript(name, form);
    req.script = name;
    if (!script) return transportFailure(reply, 'unknownScript');
    // Names only, never values (issue 16: `ip=` for `ipaddr=` used to pass unseen).
    const unknown = unknownFields(script, form);
    if (unknown.length)
      req.log.warn({ script: name, fields: unknown.slice(0, 10).map((f) => f.slice(0, 40)) }, 'unknown fields');
    try {
      const clientAddress = req.ip;
      let fields;
      if (script.session) {
        const account = await services.sessions.authenticate(form.get('apikey'), form.get('sessionToken'));
        // Set before the script runs: a call it refuses is still the account's.
        req.userid = account.userid;
        checkBeforeRun(script, form, account, services.clock.now(), unknown);
        fields = await script.run({ form, clientAddress, services, account });
      } else {
        checkBeforeRun(script, form, null, services.clock.now(), unknown);
        fields = await script.run({ form, clientAddress, services });
      }
      // Our own text (frozen values' JSON cached, see successText), Fastify's JSON content type.
      return reply.type(JSON_TYPE).send(successText(fields));
    } catch (err) {
      const known = codeOf(err);
      if (known === null) req.log.error({ err, script: name }, 'script failed');
      const code = known ?? (script.storeDownError && isStoreUnreachable(err) ? script.storeDownError : null);
      if (err instanceof RetryLaterError) {
        // Throttled, not judged: 429 and Retry-After (RFC 6585, RFC 9110 10.2.3); the body keeps the spec's shape.
        reply.code(429).header('retry-after', String(err.retryAfterSeconds));
        req.log.warn({ script: name, ...err.logFields, retryAfter: err.retryAfterSeconds }, 'throttled');
        metrics?.login('throttled');
      } else if (!script.session) {
        // The throttled line above is the only one for a throttled attempt; this one is for a refused one.
        req.log.warn(
          {
            script: name,
            error: code ?? script.systemError,
            client: req.ip,
            ...(err instanceof ApiError ? err.logFields : {}),
          },
          'login failed',
        );
        metrics?.login('failed');
      }
      req.apiCode = code ?? script.systemError;
      return failure(req.apiCode);
    }
  });
  return app;
}

/** Plain HTTP: every API call is answered `notSSL`, whatever it holds. */
export function plainServer(
  logger: Logger,
  limits: TransportLimits = DEFAULT_LIMITS,
  metrics?: Metrics,
): FastifyInstance {
  const app = baseServer(logger, null, limits, metrics);
  app.all('/api/*', async (req) => {
    req.script = (req.params as { '*': string })['*'];
    req.apiCode = 'notSSL';
    return failure('notSSL');
  });
  // The body is never read here, so its type does not matter.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
  return app;
}
