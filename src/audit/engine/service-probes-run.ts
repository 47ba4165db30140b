/**
 * Names a port with nmap's probe database (service-probes.ts) without
 * nmap's slowness: the greeting Vigil already read stands for the NULL
 * probe; then only the TCP probes whose `ports` list this port (nmap's
 * `-sV` also tries every probe up to rarity 7 on every port, one after the
 * other, each waiting up to its totalwaitms of 5–7.5 s: that is where its
 * time goes), all at once, each on its own connection, each read short.
 * A reply is matched against its probe's lines, then its fallbacks', then
 * the NULL probe's (nmap's order); the first hard match wins in file order,
 * a softmatch only names the service.
 */
import { Conv } from '../proto/conv.ts';
import {
  fillTemplate,
  inPorts,
  loadProbes,
  type ProbeDb,
  type ProbeMatch,
  type ServiceProbe,
} from './service-probes.ts';
import type { Net } from './types.ts';

export interface Identified {
  service: string;
  product: string | null;
  version: string | null;
  info: string | null;
  cpe: string[];
  soft: boolean;
  probe: string;
}

export interface IdentifyOptions {
  /** Highest rarity tried (nmap's --version-intensity; default 7 as nmap's). */
  rarity?: number;
  /** Upper bound of one probe's wait for its reply (default 1500 ms; nmap waits 5 s or more). */
  waitMs?: number;
  db?: ProbeDb | null;
}

/** The first match of `probe`'s lines (then its fallbacks', then NULL's) on `reply`. */
export function matchReply(db: ProbeDb, probe: ServiceProbe, reply: Buffer): Identified | null {
  if (!reply.length) return null;
  const text = reply.toString('latin1');
  const chain = [probe, ...probe.fallback.map((f) => db.byName.get(`${probe.proto}/${f}`)), db.byName.get('TCP/NULL')];
  let soft: Identified | null = null;
  for (const p of new Set(chain)) {
    if (!p) continue;
    for (const m of p.matches) {
      if (soft && (m.soft || m.service !== soft.service)) continue;
      const r = safeExec(m, text);
      if (!r) continue;
      const found = identified(m, r, probe.name);
      if (!m.soft) return found;
      soft ??= found;
    }
  }
  return soft;
}

function safeExec(m: ProbeMatch, text: string): RegExpExecArray | null {
  try {
    return m.re.exec(text);
  } catch {
    return null;
  }
}

function identified(m: ProbeMatch, r: RegExpExecArray, probe: string): Identified {
  const f = (k: keyof ProbeMatch['fields']) => (m.fields[k] ? fillTemplate(m.fields[k]!, r) || null : null);
  return {
    service: m.service,
    product: f('p'),
    version: f('v'),
    info: f('i'),
    cpe: m.cpe.map((c) => fillTemplate(c, r)),
    soft: m.soft,
    probe,
  };
}

/** The greeting a port sent unasked, matched as nmap's NULL probe. */
export function identifyGreeting(greeting: Buffer, db: ProbeDb | null = loadProbes()): Identified | null {
  const nul = db?.byName.get('TCP/NULL');
  return db && nul ? matchReply(db, nul, greeting) : null;
}

/** Sends the port's probes in parallel; the best answer or null. Never throws. */
export async function identifyByProbes(net: Net, port: number, opts: IdentifyOptions = {}): Promise<Identified | null> {
  const db = opts.db === undefined ? loadProbes() : opts.db;
  if (!db || inPorts(db.exclude, port)) return null;
  const maxRarity = opts.rarity ?? 7;
  const tcp = db.probes.filter((p) => p.proto === 'TCP' && p.name !== 'NULL');
  const round = async (probes: ServiceProbe[]) => {
    const results = await Promise.all(
      probes.map((p) =>
        send(net, port, p, opts.waitMs ?? 1500).then((reply) => (reply ? matchReply(db, p, reply) : null)),
      ),
    );
    return results.find((r) => r && !r.soft) ?? results.find((r) => r) ?? null;
  };
  const listed = tcp.filter((p) => p.rarity <= maxRarity && inPorts(p.ports, port));
  const first = listed.length ? await round(listed) : null;
  if (first && !first.soft) return first;
  // A service on a port nobody lists (LDAP on 10389, …): the common probes
  // (rarity ≤ 6, ~40 of them) once more at once; one more short wait only
  // for ports that nothing of ours or of the listed probes named.
  const common = tcp.filter((p) => p.rarity <= Math.min(6, maxRarity) && !listed.includes(p));
  const second = common.length ? await round(common) : null;
  return second && !second.soft ? second : (first ?? second);
}

async function send(net: Net, port: number, p: ServiceProbe, waitMs: number): Promise<Buffer | null> {
  let conv: Conv | null = null;
  try {
    conv = new Conv(await net.connect(port, { timeoutMs: 2000 }), Math.min(waitMs, p.totalwaitms));
    // The reply is complete when the peer pauses 150 ms after its bytes (or closes).
    let reply = await conv.ask(p.payload, waitMs);
    for (let i = 0; i < 8 && reply.length && !conv.closed; i++) {
      const n = reply.length;
      reply = await conv.read(150, (b) => b.length > n);
      if (reply.length === n) break;
    }
    return reply.length ? reply : null;
  } catch {
    return null;
  } finally {
    conv?.close();
  }
}
