/**
 * nmap's service probe database (nmap-service-probes), read at run time when
 * Debian's nmap package installed it: ~150 probes and ~12 000 match lines
 * that name thousands of services Vigil's own detect/* families do not know
 * (rsync, X11, LDAP, …). Grammar: https://nmap.org/book/vscan-fileformat.html
 *
 * The match regexes are Perl (PCRE) regexes over raw bytes. We match them
 * on the reply decoded as latin1 (one char per byte, so \xHH means the byte)
 * and translate what differs in JS: Perl's `.` excludes only \n (JS's also
 * \r, which nmap patterns such as `^220 .*\r\n` rely on), a `]` first in a
 * class is literal, \A \z \Z, POSIX classes. Patterns JS still cannot
 * compile (atomic groups, possessive quantifiers) are skipped and counted:
 * none of the 11 917 lines of Debian's nmap 7.93 (parsed in ~0.3 s, once
 * per process).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export const PROBES_PATH = '/usr/share/nmap/nmap-service-probes';

export interface ProbeMatch {
  service: string;
  soft: boolean;
  re: RegExp;
  /** Version-info templates: p/ product, v/ version, i/ info, h/ host, o/ OS, d/ device, cpe:/ (several). */
  fields: Partial<Record<'p' | 'v' | 'i' | 'h' | 'o' | 'd', string>>;
  cpe: string[];
}

export interface ServiceProbe {
  proto: 'TCP' | 'UDP';
  name: string;
  payload: Buffer;
  rarity: number;
  ports: PortSet;
  sslports: PortSet;
  totalwaitms: number;
  fallback: string[];
  matches: ProbeMatch[];
}

export interface ProbeDb {
  probes: ServiceProbe[];
  byName: Map<string, ServiceProbe>;
  exclude: PortSet;
  /** Match lines read, and those whose regex JS cannot compile (skipped). */
  total: number;
  skipped: number;
}

type PortSet = Array<[number, number]>;
export const inPorts = (set: PortSet, port: number) => set.some(([a, b]) => port >= a && port <= b);

function portSet(text: string): PortSet {
  return text
    .split(',')
    .map((t) => t.trim().replace(/^[TU]:/, ''))
    .filter(Boolean)
    .map((t) => {
      const [a, b] = t.split('-').map(Number);
      return [a!, b ?? a!] as [number, number];
    })
    .filter(([a, b]) => Number.isInteger(a) && Number.isInteger(b));
}

/** The q|…| payload: C-style escapes as the nmap grammar lists them. */
export function unescapePayload(s: string): Buffer {
  const out: number[] = [];
  const simple: Record<string, number> = { '0': 0, a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out.push(c.charCodeAt(0) & 0xff);
      continue;
    }
    const n = s[++i]!;
    if (n === 'x' && /^[0-9a-fA-F]{2}/.test(s.slice(i + 1, i + 3))) {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(simple[n] ?? n.charCodeAt(0) & 0xff);
  }
  return Buffer.from(out);
}

const POSIX: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  xdigit: '0-9a-fA-F',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
  word: '\\w',
};

/** Perl regex source → JS source (see the header for what differs). */
export function perlToJs(src: string, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      const n = src[i + 1] ?? '';
      i++;
      if (!inClass && n === 'A') out += '^';
      else if (!inClass && n === 'z') out += '$';
      else if (!inClass && n === 'Z') out += '(?=\\n?$)';
      else out += c + n;
      continue;
    }
    if (inClass) {
      const posix = /^\[:(\w+):\]/.exec(src.slice(i));
      if (posix && POSIX[posix[1]!]) {
        out += POSIX[posix[1]!];
        i += posix[0].length - 1;
      } else if (c === '[') out += '\\[';
      else {
        if (c === ']') inClass = false;
        out += c;
      }
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += '[';
      if (src[i + 1] === '^') out += src[++i];
      // A `]` first in a Perl class is a literal, in JS it closes an empty class.
      if (src[i + 1] === ']') (out += '\\]'), i++;
      continue;
    }
    out += c === '.' && !dotAll ? '[^\\n]' : c;
  }
  return out;
}

/** Reads `<letter><delim>text<delim>[flags]` at `s[i]`; returns [text, flags, next index]. */
function delimited(s: string, i: number): [string, string, number] | null {
  const d = s[i];
  if (!d) return null;
  const end = s.indexOf(d, i + 1);
  if (end < 0) return null;
  let j = end + 1;
  while (j < s.length && /[a-z]/i.test(s[j]!)) j++;
  return [s.slice(i + 1, end), s.slice(end + 1, j), j];
}

export function parseMatch(line: string): ProbeMatch | null | 'bad' {
  const m = /^(match|softmatch)\s+(\S+)\s+m/.exec(line);
  if (!m) return null;
  const body = delimited(line, m[0].length);
  if (!body) return 'bad';
  const [src, flags] = body;
  let re: RegExp;
  try {
    re = new RegExp(
      perlToJs(src, flags.includes('s')),
      (flags.includes('i') ? 'i' : '') + (flags.includes('s') ? 's' : ''),
    );
  } catch {
    return 'bad';
  }
  const fields: ProbeMatch['fields'] = {};
  const cpe: string[] = [];
  let i = body[2];
  while (i < line.length) {
    while (line[i] === ' ') i++;
    const key = line.startsWith('cpe:', i) ? 'cpe' : line[i];
    if (!key) break;
    const f = delimited(line, i + (key === 'cpe' ? 4 : 1));
    if (!f) break;
    if (key === 'cpe') cpe.push(f[0]);
    else if ('pvihod'.includes(key)) fields[key as keyof ProbeMatch['fields']] = f[0];
    i = f[2];
  }
  return { service: m[2]!, soft: m[1] === 'softmatch', re, fields, cpe };
}

export function parseProbes(text: string): ProbeDb {
  const parse = parser();
  parse(text.split('\n'));
  return parse([]);
}

/** A parser fed lines in slices (so that loadProbesAsync can yield between them); each call returns the db so far. */
function parser(): (lines: string[]) => ProbeDb {
  const db: ProbeDb = { probes: [], byName: new Map(), exclude: [], total: 0, skipped: 0 };
  let cur: ServiceProbe | null = null;
  return (lines) => {
    for (const raw of lines) {
      const line = raw.trimEnd();
      if (!line || line.startsWith('#')) continue;
      if (line.startsWith('Exclude ')) db.exclude = portSet(line.slice(8).replace(/U:[^,]*(,|$)/g, ''));
      else if (line.startsWith('Probe ')) {
        const p = /^Probe (TCP|UDP) (\S+) q(.)(.*)\3(\s.*)?$/.exec(line);
        cur = p
          ? {
              proto: p[1] as 'TCP' | 'UDP',
              name: p[2]!,
              payload: unescapePayload(p[4]!),
              rarity: 5,
              ports: [],
              sslports: [],
              totalwaitms: 5000,
              fallback: [],
              matches: [],
            }
          : null;
        if (cur) db.probes.push(cur), db.byName.set(`${cur.proto}/${cur.name}`, cur);
      } else if (!cur) continue;
      else if (line.startsWith('rarity ')) cur.rarity = Number(line.slice(7)) || 5;
      else if (line.startsWith('ports ')) cur.ports = portSet(line.slice(6));
      else if (line.startsWith('sslports ')) cur.sslports = portSet(line.slice(9));
      else if (line.startsWith('totalwaitms ')) cur.totalwaitms = Number(line.slice(12)) || 5000;
      else if (line.startsWith('fallback '))
        cur.fallback = line
          .slice(9)
          .split(',')
          .map((s) => s.trim());
      else if (line.startsWith('match ') || line.startsWith('softmatch ')) {
        db.total++;
        const m = parseMatch(line);
        if (m === 'bad') db.skipped++;
        else if (m) cur.matches.push(m);
      }
    }
    return db;
  };
}

let cached: { path: string; db: ProbeDb | null } | null = null;

/**
 * The same, parsed in slices of 1000 lines with the event loop let go in
 * between: parsing at once blocks it ~0.3 s (1.5 s and more on a loaded
 * host), and every read timer of a conversation running meanwhile would
 * then fire before its reply is read (seen: an FTP FEAT read lost).
 */
export function loadProbesAsync(path = process.env.VIGIL_SERVICE_PROBES ?? PROBES_PATH): Promise<ProbeDb | null> {
  if (cached?.path === path) return Promise.resolve(cached.db);
  // One parse for every caller meanwhile: each port's detection asks, and the 40 hosts of bench/wan.ts
  // whose scans ended together parsed it 40 times at once, 8.5 s against 0.6 s for one (2-core VM, loaded).
  if (loading?.path !== path) loading = { path, db: parseAsync(path) };
  return loading.db;
}

let loading: { path: string; db: Promise<ProbeDb | null> } | null = null;

async function parseAsync(path: string): Promise<ProbeDb | null> {
  let text: string;
  try {
    text = await readFile(path, 'latin1');
  } catch {
    cached = { path, db: null };
    return null;
  }
  const lines = text.split('\n');
  const parse = parser();
  for (let i = 0; i < lines.length; i += 1000) {
    parse(lines.slice(i, i + 1000));
    await new Promise((r) => setImmediate(r));
    if (cached?.path === path) return cached.db; // a concurrent load finished first
  }
  cached = { path, db: parse([]) };
  return cached.db;
}

/** The database at `path`, parsed once per process; null when nmap is not installed. */
export function loadProbes(path = process.env.VIGIL_SERVICE_PROBES ?? PROBES_PATH): ProbeDb | null {
  if (cached?.path === path) return cached.db;
  let db: ProbeDb | null = null;
  try {
    db = parseProbes(readFileSync(path, 'latin1'));
  } catch {
    db = null;
  }
  cached = { path, db };
  return db;
}

/** Fills a p/v/i template: $1..$9, $P(n) (printable only), $SUBST(n,"a","b"), $I(n,">") (unsigned int). */
export function fillTemplate(tpl: string, m: RegExpExecArray): string {
  const g = (n: string) => m[Number(n)] ?? '';
  return tpl
    .replace(/\$P\((\d)\)/g, (_, n) => g(n).replace(/[^\x20-\x7e]/g, ''))
    .replace(/\$SUBST\((\d),"([^"]*)","([^"]*)"\)/g, (_, n, a, b) => g(n).split(a).join(b))
    .replace(/\$I\((\d),"([<>])"\)/g, (_, n, end) => {
      const bytes = [...g(n)].map((c) => c.charCodeAt(0));
      if (end === '<') bytes.reverse();
      return String(bytes.reduce((acc, b) => acc * 256 + b, 0));
    })
    .replace(/\$(\d)/g, (_, n) => g(n))
    .trim();
}
