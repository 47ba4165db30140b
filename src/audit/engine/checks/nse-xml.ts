/** The <script> results of nmap's -oX output, as findings. A small reader for nmap's own regular XML, no general parser. */
import type { Finding } from '../types.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTITIES[e.toLowerCase()]!,
  );

const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? unescape(m[1]!) : null;
};

/** Script output that reports nothing found, or a failure, is not a finding. */
const NOTHING = /NOT VULNERABLE|ERROR: Script execution failed|^\s*$|Couldn't find any|No .* found|false positive/i;

export function parseNseXml(xml: string, keep: (port: number, script: string) => boolean = () => true): Finding[] {
  const out: Finding[] = [];
  const ports = xml.matchAll(/<port protocol="tcp" portid="(\d+)">([\s\S]*?)<\/port>/g);
  for (const [, port, body] of ports) {
    for (const [tag] of body!.matchAll(/<script\s[^>]*>/g)) {
      const id = attr(tag, 'id');
      const output = attr(tag, 'output');
      if (!id || output === null || NOTHING.test(output) || !keep(Number(port), id)) continue;
      const cves = [...new Set(output.match(/CVE-\d{4}-\d{4,7}/g) ?? [])];
      const text = output.replace(/\s+/g, ' ').trim().slice(0, 600);
      out.push({
        port: Number(port),
        detail: `nmap NSE ${id}: ${text}`,
        cves,
        risk: /State: VULNERABLE/.test(output) ? 'high' : 'medium',
        title: `nmap NSE ${id}`,
      });
    }
  }
  return out;
}
