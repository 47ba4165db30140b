import { type ContentFamily, each, re } from './web-content.ts';

/**
 * Monitoring endpoints open to anyone (status pages of the web stack,
 * metrics), as rows of the web-content table
 * (web/exposed-files.ts makes the check). Keyed on the exposition format,
 * not on a product: every Prometheus exporter and instrumented application
 * (node_exporter, Spring Boot's actuator, Go and Python client libraries,
 * Traefik, etcd, Grafana …) writes the same text format.
 */
export const MONITORING_FAMILIES: readonly ContentFamily[] = [
  {
    id: 'vigil.http.status-page',
    shortid: 'HTTP-STATUS-PAGE',
    title:
      'Server status page exposed (nginx stub_status, PHP-FPM status, HAProxy stats, Apache server-info, h2o status, Squid cache manager)',
    risk: 'medium',
    type: 'NOTE',
    description:
      'A monitoring page of the web stack is public: Apache mod_info shows the whole configuration, PHP-FPM status the pool, its processes and (full) the scripts and clients being served, HAProxy statistics every frontend, backend and server with its state and traffic, nginx stub_status the load, the h2o status handler the requests in flight and their clients, the Squid cache manager its clients, traffic and configuration.',
    solution:
      'Restrict these locations to administrators (allow/deny, Require ip; Squid: http_access deny manager before any allow; HAProxy: stats auth and an ACL with stats http-request deny, or stats on a management-only bind).',
    lead: 'Status pages answer without authentication',
    candidates: [
      // mod_info's page title and heading.
      { path: '/server-info', what: 'Apache server-info', sig: (a) => /Apache Server Information/i.test(a.body) },
      // stub_status writes "Active connections: N \nserver accepts handled requests\n" (ngx_http_stub_status_module.c).
      ...each(
        ['/nginx_status', '/nginx-status', '/stub_status', '/basic_status', '/status', '/server-status'],
        'nginx stub_status',
        re(/^Active connections:\s*\d+\s*\nserver accepts handled requests/),
      ),
      // HAProxy's stats page (stats uri; /haproxy?stats by default): "Statistics Report for HAProxy" (or
      // "for pid N" with stats hide-version) and the style of its proxy table (.frontend rows), per src/stats.c.
      ...each(
        ['/haproxy?stats', '/stats', '/haproxy-stats', '/admin?stats'],
        'HAProxy statistics',
        (a) =>
          /<title>Statistics Report for (?:HAProxy|pid \d+)/.test(a.body) &&
          /\.frontend\s*\{\s*background/.test(a.body),
      ),
      // PHP-FPM's status page (fpm_status.c) starts "pool: NAME\nprocess manager: …".
      ...each(
        ['/status', '/fpm-status', '/php-fpm-status', '/fpm_status', '/php_status'],
        'PHP-FPM status',
        (a) =>
          /^pool:\s+\S+\s*\nprocess manager:\s+\w+/m.test(a.body) ||
          /<th>pool<\/th>\s*<td>[^<]+<\/td>[\s\S]*process manager/i.test(a.body),
      ),
      // h2o's status handler (`status: ON`, on /server-status in Debian's stock h2o.conf): its JSON has the server
      // version, uptime and, per request in flight, the client's address and path (lib/handler/status.c).
      {
        path: '/server-status/json',
        what: 'the h2o status handler',
        sig: (a) => /^\s*\{[\s\S]*"server-version":\s*"[^"]+"[\s\S]*"uptime":\s*\d+/.test(a.body),
      },
      // Squid's cache manager (Squid 3.2+ serves it at /squid-internal-mgr/ on the proxy port; stock
      // squid.conf allows it to localhost only): its info page starts "Squid Object Cache: Version N"
      // and lists the clients, requests and memory (src/mgr, stat.c).
      {
        path: '/squid-internal-mgr/info',
        what: 'the Squid cache manager',
        sig: (a) => /^Squid Object Cache: Version \S+/m.test(a.body) && /^Start Time:/m.test(a.body),
      },
    ],
  },
  {
    id: 'vigil.http.metrics-exposed',
    shortid: 'HTTP-METRICS',
    title: 'Metrics endpoint open to anyone (Prometheus / OpenMetrics exposition)',
    risk: 'medium',
    type: 'NOTE',
    description:
      'A metrics endpoint answers without authentication: it tells anyone the software and its versions, host names, file systems, network interfaces, request paths and load, and sometimes secrets put in labels; scraping large pages is also an easy way to load the server.',
    solution:
      'Bind exporters to a management network or loopback, or require authentication in front of them (exporter-toolkit web.config basic_auth_users or TLS client certificates; Spring Boot: expose the prometheus endpoint only on a management port with security).',
    lead: 'Metrics answer without authentication',
    firstOnly: true,
    candidates: each(
      ['/metrics', '/actuator/prometheus', '/prometheus/metrics', '/prometheus'],
      'Prometheus metrics',
      // Text format 0.0.4 and OpenMetrics: "# TYPE <metric> <type>" lines and "<metric>{labels} <value>" samples.
      (a) =>
        re(
          /^# TYPE [a-zA-Z_:][\w:]* (?:counter|gauge|histogram|summary|untyped|unknown|info|stateset|gaugehistogram)\s*$/m,
        )(a) &&
        /^[a-zA-Z_:][\w:]*(?:\{[^}\n]*\})? [-+]?(?:[\d.]+(?:[eE][-+]?\d+)?|NaN|[-+]?Inf)(?: \d+)?\s*$/m.test(a.body),
    ),
  },
];
