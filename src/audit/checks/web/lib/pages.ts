import type { HttpInfo, Service } from '../../../engine/types.ts';

/** What the passive web checks look for in the GET / answer detection recorded (Service.http). */

/** A port where detection recorded an HTTP answer. */
export const hasHttpAnswer = (s: Service) => s.http !== null;

/** Stock pages left in place: the server was installed and never configured. */
export const DEFAULT_PAGES: [RegExp, string][] = [
  [/Welcome to nginx!/i, 'nginx default page ("Welcome to nginx!")'],
  [/<h1>\s*It works!\s*<\/h1>/i, 'Apache default page ("It works!")'],
  [/Apache2 (Debian|Ubuntu) Default Page/i, 'Apache Debian/Ubuntu default page'],
  [/Test Page for the (Apache HTTP Server|HTTP Server on|nginx)/i, 'Red Hat / CentOS test page'],
  [/<title>\s*IIS Windows( Server)?\s*<\/title>|<title>\s*IIS[78]\s*<\/title>|iisstart\.png/i, 'IIS default page'],
  [/<title>\s*Welcome to IIS/i, 'IIS default page'],
  [/lighttpd server[\s\S]{0,200}Placeholder page|<title>\s*Placeholder page\s*<\/title>/i, 'lighttpd placeholder page'],
  [/<title>\s*Apache Tomcat\/\d/i, 'Apache Tomcat default page'],
  // The page Debian's caddy package serves from /usr/share/caddy (its stock Caddyfile's root).
  [/<title>\s*Caddy works!\s*<\/title>/i, 'Caddy default page ("Caddy works!")'],
  // Debian's mini-httpd package (/var/www/html/index.mini-httpd.html): its whole body is "It works!".
  [
    /<title>\s*Welcome page\s*<\/title>\s*<\/head>\s*<body>\s*It works!\s*<\/body>/i,
    'mini_httpd default page ("It works!")',
  ],
];

export const isHtml = (h: HttpInfo) => !h.headers['content-type'] || /html/i.test(h.headers['content-type']);
