/**
 * The <script> results of nmap's -oX output, as findings. A small reader for nmap's own regular XML, no
 * general parser.
 */
import type { Finding } from '../../engine/types.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ENTITIES[e.toLowerCase()]!,
  );

const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? unescapeXml(m[1]!) : null;
};

/**
 * Only a script's positive verdict becomes a finding. Scripts built on
 * nmap's vulns library (nselib/vulns.lua) say it in a `State:` line:
 * VULNERABLE (also "(Exploitable)", "(DoS)") is a finding; LIKELY VULNERABLE
 * is what the script could not confirm (ssl-poodle, http-vuln-cve2011-3192
 * on a partial reply): kept, at QoD 50, so it is LOG; NOT VULNERABLE and
 * UNKNOWN are nothing. Other scripts (http-git, http-trace, ssl-known-key …)
 * print only what they found, so their output is the verdict, unless it is
 * one of NSE's failure texts: "ERROR: Script execution failed", "No reply
 * from server (TIMEOUT)" (seen from ssl-ccs-injection on a slow port),
 * "Couldn't …", "Unable to …".
 */
const FAILURE =
  /^\s*(?:ERROR\b|TIMEOUT\b|No reply from server|Couldn't|Could not|Unable to|Failed to|No \w+ found)|\(TIMEOUT\)|NOT VULNERABLE|false positive/im;
const STATE = /State:\s*(LIKELY VULNERABLE|NOT VULNERABLE|VULNERABLE|UNKNOWN)/g;

/** QoD of a script's verdict, or null when the output is no positive verdict. */
export function verdictQod(output: string): number | null {
  const states = [...output.matchAll(STATE)].map((m) => m[1]!);
  if (states.length) return states.includes('VULNERABLE') ? 99 : states.includes('LIKELY VULNERABLE') ? 50 : null;
  return output.trim() === '' || FAILURE.test(output) ? null : 95;
}

export function parseNseXml(xml: string, keep: (port: number, script: string) => boolean = () => true): Finding[] {
  const out: Finding[] = [];
  const ports = xml.matchAll(/<port protocol="tcp" portid="(\d+)">([\s\S]*?)<\/port>/g);
  for (const [, port, body] of ports) {
    for (const [tag] of body!.matchAll(/<script\s[^>]*>/g)) {
      const id = attr(tag, 'id');
      const output = attr(tag, 'output');
      if (!id || output === null || !keep(Number(port), id)) continue;
      const qod = verdictQod(output);
      if (qod === null) continue;
      const cves = [...new Set(output.match(/CVE-\d{4}-\d{4,7}/g) ?? [])];
      const text = output.replace(/\s+/g, ' ').trim().slice(0, 600);
      out.push({
        port: Number(port),
        detail: `nmap NSE ${id}: ${text}`,
        cves,
        risk: /State: VULNERABLE/.test(output) ? 'high' : 'medium',
        title: `nmap NSE ${id}`,
        qod,
      });
    }
  }
  return out;
}
