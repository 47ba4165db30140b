/**
 * nmap's NSE scripts of the `vuln` AND `safe` categories, for advanced
 * audits (profiles.ts keeps `vigil.nse.*` to advanced). `vuln and safe`,
 * not all of `vuln`: the unsafe vuln scripts exploit or crash services.
 * nmap names services by port number here (no -sV: Vigil's own detection
 * has named them, and -sV costs seconds per port).
 * nmap gets the audited address only — the one the Net was fenced for —
 * and the open ports the scan found; without nmap on PATH nothing runs.
 * `external` scripts (vulners, http-cross-domain-policy) are excluded: they
 * contact hosts other than the target.
 */
import { execFile, execFileSync } from 'node:child_process';
import type { HostFacts } from '../../engine/types.ts';
import { defineCheck } from '../kit.ts';
import { parseNseXml } from '../lib/nse-xml.ts';

let nmap: string | null | undefined;
function nmapPath(): string | null {
  if (nmap === undefined) {
    try {
      nmap = execFileSync('sh', ['-c', 'command -v nmap'], { encoding: 'utf8' }).trim() || null;
    } catch {
      nmap = null;
    }
  }
  return nmap;
}

const RUN_LIMIT_MS = 120_000;

/**
 * Scripts that test one product's flaw, and the product they are about. Some
 * report "VULNERABLE" on any server that behaves alike (http-vuln-cve2011-3192
 * on nginx, which honours many byte ranges but is not Apache): where Vigil's
 * detection named another product on the port, such a result is dropped.
 */
const PRODUCT_OF: Record<string, RegExp> = {
  'http-vuln-cve2011-3192': /apache/i,
  'http-vuln-cve2015-1635': /microsoft-(iis|httpapi)/i,
  'http-frontpage-login': /microsoft-iis|frontpage/i,
  'http-vuln-cve2010-0738': /jboss|wildfly/i,
  'http-vmware-path-vuln': /vmware/i,
  // MS17-010 (EternalBlue) and DoublePulsar are flaws of Windows' SMB server, never of Samba.
  'smb-vuln-ms17-010': /windows|microsoft/i,
  'smb-double-pulsar-backdoor': /windows|microsoft/i,
};

/** False when the script is about one product and the port is known to run another. */
function applies(host: HostFacts, port: number, script: string): boolean {
  const product = PRODUCT_OF[script];
  const service = host.services.find((s) => s.port === port);
  if (!product || !service) return true;
  const seen = [service.product, service.http?.headers.server, service.banner].filter(Boolean).join(' ');
  return !seen || product.test(seen);
}

function runNmap(path: string, address: string, ports: number[]): Promise<string | null> {
  // http-slowloris-check holds connections open for minutes: a DoS probe in all but name.
  const args = [
    '-n',
    '-Pn',
    '-sT',
    '-p',
    ports.join(','),
    '--script',
    'vuln and safe and not external and not http-slowloris-check',
    '--script-timeout',
    '30s',
    '-oX',
    '-',
    address,
  ];
  if (address.includes(':')) args.unshift('-6');
  return new Promise((resolve) => {
    execFile(path, args, { timeout: RUN_LIMIT_MS, maxBuffer: 32 << 20, killSignal: 'SIGKILL' }, (err, stdout) =>
      resolve(err ? null : stdout),
    );
  });
}

export default defineCheck({
  id: 'vigil.nse.vuln',
  shortid: 'NSE-VULN',
  title: 'nmap NSE vulnerability script finding',
  family: 'General',
  categories: ['safe', 'vuln'],
  risk: 'medium',
  type: 'HOLE',
  description:
    "A finding of one of nmap's NSE scripts in the 'vuln' and 'safe' categories, run by Vigil on the open ports of this address; the script's own output follows.",
  solution:
    "Follow the advice in the script's output and the references it names; most NSE vuln findings are fixed by upgrading the product or disabling the feature named.",

  // Once for the host: one nmap run over every open port.
  ports: { host: true },
  async run({ host, net }) {
    const path = nmapPath();
    // Raw printing ports detection named jetdirect print whatever a script sends them (a TLS hello was seen
    // on p910nd's printer): left out, as nmap leaves 9100-9107 out of version detection.
    const ports = host.openPorts.filter((p) => host.services.find((s) => s.port === p)?.name !== 'jetdirect');
    if (!path || ports.length === 0) return null;
    const xml = await runNmap(path, net.address, ports);
    return xml ? parseNseXml(xml, (port, script) => applies(host, port, script)) : null;
  },
});
