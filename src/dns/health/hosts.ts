/**
 * THE one door from zone health into the audit engine (issue 30): its
 * permission rule and its probes, never probes of our own. Everything
 * zone health takes from src/audit/ is imported here and nowhere else, so
 * a move of the probing code (src/audit/proto/) re-points this file only.
 */
import { checkServerIdentity, type PeerCertificate, type TLSSocket } from 'node:tls';
import { permitted } from '../../audit/targets.ts';
import { Fence } from '../../audit/engine/fence.ts';
import { startTls } from '../../audit/proto/starttls.ts';
import { describeSession } from '../../audit/proto/tls.ts';
import { probeOpenRelay } from '../../audit/proto/smtp.ts';
import type { Net, Service, TlsCertificate } from '../../audit/engine/types.ts';

/** What a TLS handshake showed, judged for one host name. */
export interface TlsSeen {
  protocol: string;
  certificate: TlsCertificate | null;
  /** Why the certificate does not name the host (RFC 6125 §6, node's checkServerIdentity); null: it does. */
  nameError: string | null;
  /** The chain verifies against the system's CAs; a private CA or self-signed one does not. */
  trusted: boolean;
}

export interface SmtpSeen {
  /** Something accepted a connection on port 25. */
  reachable: boolean;
  /** STARTTLS offered and the handshake made (RFC 3207); null otherwise. */
  starttls: TlsSeen | null;
  /** The audit engine's open-relay check fired (what it saw), or null. */
  openRelay: string | null;
}

export interface HttpsSeen {
  reachable: boolean;
  tls: TlsSeen | null;
}

export interface HostProbes {
  /** The audit engine's rule: inside the account's `allow-ip` grants and the server's `--scan-allow` fence. */
  mayAudit(address: string): boolean;
  smtp(address: string, host: string): Promise<SmtpSeen>;
  https(address: string, host: string): Promise<HttpsSeen>;
}

const SMTP: Service = {
  port: 25,
  protocol: 'tcp',
  name: 'smtp',
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
};

function seen(socket: TLSSocket, host: string): TlsSeen {
  const info = describeSession(socket);
  const peer = socket.getPeerCertificate() as PeerCertificate;
  const err = peer && Object.keys(peer).length ? checkServerIdentity(host, peer) : new Error('no certificate');
  return {
    protocol: info.protocol,
    certificate: info.certificate,
    nameError: err ? err.message : null,
    trusted: socket.authorized,
  };
}

const reachable = (net: Net, port: number, timeoutMs: number) =>
  net.connect(port, { timeoutMs }).then(
    (s) => (s.destroy(), true),
    () => false,
  );

/** The probes for one account: only its permitted addresses are ever contacted (the Fence enforces it again). */
export function hostProbes(allowIp: string, scanAllow: readonly string[], timeoutMs = 4000): HostProbes {
  const mayAudit = (address: string) => permitted([address], allowIp, scanAllow);
  const netFor = (address: string) => new Fence([address], scanAllow).net(address, timeoutMs);
  return {
    mayAudit,
    async smtp(address, host) {
      if (!mayAudit(address)) return { reachable: false, starttls: null, openRelay: null };
      const net = netFor(address);
      const [open, tls, relay] = await Promise.all([
        reachable(net, 25, timeoutMs),
        startTls(net, SMTP, { servername: host }, timeoutMs),
        probeOpenRelay(net, 25).then((detail) => (detail ? [{ detail }] : [])),
      ]);
      const starttls = tls ? seen(tls, host) : null;
      tls?.destroy();
      return { reachable: open, starttls, openRelay: relay[0]?.detail ?? null };
    },
    async https(address, host) {
      if (!mayAudit(address)) return { reachable: false, tls: null };
      const net = netFor(address);
      try {
        const socket = await net.connectTls(443, { servername: host, timeoutMs });
        try {
          return { reachable: true, tls: seen(socket, host) };
        } finally {
          socket.destroy();
        }
      } catch {
        return { reachable: await reachable(net, 443, timeoutMs), tls: null };
      }
    },
  };
}
