import type { Risk } from '../../engine/types.ts';

/**
 * Web frameworks' debug modes, by the page each serves for a path that
 * exists nowhere (or, for Laravel's Ignition, a route only debug mode
 * registers), for web/debugger-exposed.ts. A production setting shows a
 * plain 404 instead; the markers are the framework's own template text,
 * quoted from its sources:
 * - Django (django/views/templates/technical_404.html, DEBUG = True):
 *   "Using the URLconf defined in <code>…</code>, Django tried these URL
 *   patterns" with the whole URL map. Run here on Debian python3-django.
 * - Ruby on Rails (actionpack's routing_error.html.erb, development):
 *   "<h1>Routing Error</h1>", "No route matches [GET] …" and the routes
 *   table with "Rails.root".
 * - Symfony (kernel.debug): the profiler's X-Debug-Token-Link header on
 *   every response (WebProfilerBundle's toolbar listener), and the debug
 *   exception page "No route found for &quot;GET …".
 * - Laravel's Ignition (APP_DEBUG=true registers its routes):
 *   GET /_ignition/health-check answers {"can_execute_commands": …}; true
 *   is the route of CVE-2021-3129 (code execution, ignition < 2.5.2).
 * - Play (dev mode, "Action Not Found" … "These routes have been tried,
 *   in this order"), Phoenix (debug_errors: Phoenix.Router.NoRouteError),
 *   Sinatra (development: "Sinatra doesn&rsquo;t know this ditty."),
 *   CakePHP (debug: "Missing Controller"), Express with a development error
 *   handler (the stack through node_modules/express), Spring Boot's
 *   Whitelabel page with a Java stack trace (include-stacktrace=always;
 *   the Whitelabel page alone is Spring's production default, and is not
 *   counted), ASP.NET with customErrors Off ("Server Error in '/'
 *   Application" with "Version Information").
 * Werkzeug's debugger (Flask) is asked for by its console, before this
 * table (debugger-exposed.ts).
 */
export interface DebugPage {
  product: string;
  /** The request: a path that cannot exist (the default) or the framework's own debug route. */
  target?: string;
  /** Every marker must match (body, or the headers written as `name: value` lines). */
  markers: readonly RegExp[];
  /** A short quote of what the page gives away, for the finding. */
  quote: (text: string) => string | null;
  exposes: string;
  risk: Risk;
}

const first = (re: RegExp) => (text: string) => re.exec(text)?.[0] ?? null;
const tags = (s: string) =>
  s
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** Django's URL map: the URLconf's name and the first patterns. */
function djangoQuote(text: string): string | null {
  const conf = /Using the URLconf defined in <code>([^<]{1,80})<\/code>/.exec(text)?.[1];
  if (!conf) return null;
  const list = /Django tried these URL patterns, in this order:\s*<\/p>\s*<ol>([\s\S]*?)<\/ol>/.exec(text)?.[1] ?? '';
  // The empty pattern ('' : the site's root) is an empty item.
  const patterns = [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => tags(m[1]!) || "''");
  return `URLconf ${conf}, ${patterns.length} URL pattern${patterns.length === 1 ? '' : 's'}${patterns.length ? ` (${patterns.slice(0, 4).join(', ')})` : ''}`;
}

export const DEBUG_PAGES: readonly DebugPage[] = [
  {
    product: 'Django (DEBUG = True)',
    markers: [/Using the URLconf defined in <code>/, /Django tried these URL patterns|The current path, <code>/],
    quote: djangoQuote,
    exposes: 'the URL map, and on any error the settings, source lines and local variables',
    risk: 'medium',
  },
  {
    product: 'Ruby on Rails (development mode)',
    markers: [/<h1>\s*Routing Error\s*<\/h1>/, /No route matches \[GET\]/],
    quote: (t) => first(/Rails\.root: [^<\n]{1,100}/)(t) ?? first(/No route matches \[GET\][^<\n]{0,80}/)(t),
    exposes: 'the application root and its routes table',
    risk: 'medium',
  },
  {
    product: 'Symfony (debug mode, Web Profiler)',
    markers: [/^x-debug-token-link: \S+/im],
    quote: first(/^x-debug-token-link: \S+/im),
    exposes: "the Web Profiler: every request's headers, cookies and session, the configuration and the environment",
    risk: 'high',
  },
  {
    product: 'Symfony (debug mode)',
    markers: [/No route found for &quot;GET |No route found for "GET /, /Symfony|sf-dump|exception-message/],
    quote: (t) => first(/No route found for (&quot;|")GET [^<\n]{0,80}/)(t),
    exposes: 'stack traces with source paths',
    risk: 'medium',
  },
  {
    product: "Laravel (APP_DEBUG, Ignition's routes)",
    target: '/_ignition/health-check',
    markers: [/^\{\s*"can_execute_commands"\s*:\s*(true|false)\s*\}\s*$/m],
    quote: (t) => {
      const m = /"can_execute_commands"\s*:\s*(true|false)/.exec(t);
      return m ? `can_execute_commands: ${m[1]}` : null;
    },
    exposes:
      "Ignition's debug routes (execute-solution: code execution on ignition < 2.5.2, CVE-2021-3129) and full stack traces",
    risk: 'high',
  },
  {
    product: 'Play Framework (dev mode)',
    markers: [/Action Not Found/, /These routes have been tried, in this order/],
    quote: first(/For request &#x27;GET [^&<]{0,80}|For request 'GET [^'<]{0,80}/),
    exposes: "the routes file and the application's source on errors",
    risk: 'medium',
  },
  {
    product: 'Phoenix (debug_errors)',
    markers: [/Phoenix\.Router\.NoRouteError/, /no route found for GET/],
    quote: first(/no route found for GET [^<\n]{0,80}/),
    exposes: 'the router and stack traces with source',
    risk: 'medium',
  },
  {
    product: 'Sinatra (development)',
    markers: [/Sinatra doesn(&rsquo;|’|')t know this ditty/],
    quote: first(/Sinatra doesn(&rsquo;|’|')t know this ditty\./),
    exposes: 'development-mode error pages with backtraces and the environment',
    risk: 'medium',
  },
  {
    product: 'CakePHP (debug)',
    markers: [/Missing Controller|MissingControllerException/, /src[\\/]Controller[\\/]|Cake\\/],
    quote: first(/Missing Controller|MissingControllerException/),
    exposes: 'source paths and stack traces',
    risk: 'medium',
  },
  {
    product: 'Express (development error handler)',
    markers: [/NotFoundError: Not Found/, /at [^\n<]{0,200}node_modules[\\/]express[\\/]/],
    quote: first(/\(?\/[^\s()<]{1,120}node_modules[\\/]express[\\/][^\s()<]{0,60}/),
    exposes: "stack traces with the application's source paths",
    risk: 'medium',
  },
  {
    product: 'Spring Boot (error page with stack trace)',
    markers: [/Whitelabel Error Page/, /\bat org\.springframework\./],
    quote: first(/at org\.springframework\.[\w.$]{1,100}/),
    exposes: 'Java stack traces (class names, versions, code paths)',
    risk: 'medium',
  },
  {
    product: 'ASP.NET (customErrors Off)',
    markers: [/Server Error in '[^']*' Application/, /Version Information:/],
    quote: first(/(Microsoft \.NET Framework Version|ASP\.NET Version):[^<\n]{0,40}/),
    exposes: 'detailed error pages with stack traces, source lines and versions',
    risk: 'medium',
  },
];
