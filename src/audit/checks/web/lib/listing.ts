/**
 * What makes a page a directory listing, whichever server wrote it. The
 * known headings first (Apache, nginx, lighttpd and h2o write "Index of /",
 * Python's http.server "Directory listing for /", webfsd "listing:", IIS
 * "[To Parent Directory]"); then the structure every listing shares and a
 * site's own page does not: links whose text is the very name they point
 * to, relative to the directory (`<a href="a.txt">a.txt</a>`; Caddy's
 * browse template wraps the name in a span, mini_httpd pads it with
 * spaces), next to a link to the parent directory or at least two of them.
 * A site's navigation says "About" for about.html; a listing says
 * "about.html".
 */
import { decodeEntities } from '../../../proto/http-form.ts';

const HEADINGS: [RegExp, string][] = [
  // A path follows: "/", "/files/", "./" (mini_httpd's root), "sub/"; not "Index of socat online documentation".
  [/<(title|h[1-4])>\s*Index of \S*\/\S*\s*<\/\1>/i, 'Index of'],
  [/<title>\s*Directory listing for \/[^<]*<\/title>|<title>\s*Directory listing/i, 'Directory listing for'],
  [/<h1>listing:\s*(?:<a href="[^"]*">[^<]*<\/a>)+<\/h1>/i, 'listing:'],
  [/\[To Parent Directory\]/i, '[To Parent Directory]'],
];

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const DATE_OR_SIZE = new RegExp(
  `<time\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}[-/ ]?${MONTH}[-/ ]?\\d{4}\\b|\\b${MONTH} \\d{1,2},? \\d{4}\\b|\\b\\d+(?:\\.\\d+)?\\s?(?:B|[KMG]i?B|[kKMG])\\s*<`,
);
const ANCHOR = /<a\s[^>]*?href\s*=\s*["']([^"'?#]+)["'][^>]*>([\s\S]{0,600}?)<\/a>/gi;
const stripTags = (s: string) =>
  decodeEntities(
    s
      .replace(/<svg[\s\S]*?<\/svg>/gi, '')
      .replace(/<[^>]+>/g, '')
      .trim(),
  );
const bare = (s: string) => s.replace(/^\.\//, '').replace(/\/$/, '');

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The directory's entries a page links to by their own names, and whether it links to the parent. */
function entriesOf(html: string): { names: string[]; parent: boolean; links: number } {
  const names: string[] = [];
  let parent = false;
  // Every link but a sort order (?C=N;O=D, ?sort=name) or a fragment: what the page leads to.
  const links = [...html.matchAll(/<a\s[^>]*?href\s*=\s*["']([^"'?#][^"']*)["']/gi)].length;
  for (const m of html.matchAll(ANCHOR)) {
    const href = m[1]!.trim();
    if (href === '..' || href === '../') {
      parent = true;
      continue;
    }
    // Other sites, absolute paths and schemes are a page's links, not a directory's entries.
    if (/^[a-z][a-z0-9+.-]*:|^\/|^\.\./i.test(href)) continue;
    const name = bare(decode(decodeEntities(href))); // an attribute's &amp; is the file name's &
    const text = bare(stripTags(m[2]!));
    // Apache and mini_httpd cut long names ("a-very-long-na..>"): a prefix of six or more characters counts.
    const cut = /^(.{6,}?)(?:\.\.>|…)$/.exec(text)?.[1];
    if (name && (text === name || (cut && name.startsWith(cut))) && !names.includes(name)) names.push(name);
  }
  return { names, parent, links };
}

/** A quote proving that `html` is a directory listing, or null. */
export function listingEvidence(html: string): string | null {
  for (const [re, what] of HEADINGS) {
    const m = re.exec(html);
    if (m)
      return `"${
        m[0]
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 80) || what
      }"`;
  }
  // Most of its links are entries (a listing adds a parent link, breadcrumbs, a server's footer link): a document
  // that links to its own CHANGELOG and FAQ by name among its other links is no listing (dnsmasq's doc.html).
  // And a listing shows the way up, or its entries' sizes or dates (Caddy's root: "2 B", <time>).
  const { names, parent, links } = entriesOf(html);
  const columns = parent || DATE_OR_SIZE.test(html);
  if ((names.length >= 2 || (names.length >= 1 && parent)) && columns && names.length * 3 >= links * 2 - 6) {
    const shown = names.slice(0, 5).join(', ');
    return `links to ${names.length} entr${names.length === 1 ? 'y' : 'ies'} by their own names (${shown}${names.length > 5 ? ', …' : ''})${parent ? ' and to the parent directory' : ''}`;
  }
  return null;
}
