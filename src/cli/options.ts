import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { pemBlocks } from '../audit/proto/tls-trust.ts';
import { DEFAULTS } from '../config.ts';
import { parseDuration } from '../duration.ts';
import { logFormat } from '../log-format.ts';
import { applyConfigFile } from './config-file.ts';

/** `--data DIR` / VIGIL_DATA: every subcommand that touches state takes it. */
export const dataOption = () =>
  new Option('--data <dir>', 'data directory').env('VIGIL_DATA').default(DEFAULTS.dataDir);

export const dbOption = () =>
  new Option('--db <url>', 'postgres://… for a shared PostgreSQL (default: SQLite file in the data directory)').env(
    'VIGIL_DB',
  );

/** `--dnssec-key-file`: serve and the admin commands that sign must read the same file (src/dns/dnssec/kek.ts). */
export const dnssecKeyOption = () =>
  new Option(
    '--dnssec-key-file <file>',
    "key-encryption key of the zones' DNSSEC keys (default: DATA/dnssec/kek, made on first use)",
  ).env('VIGIL_DNSSEC_KEY_FILE');

export function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d{1,5}$/.test(text) || n > 65535) throw new Error(`invalid port '${text}'`);
  return n;
}

/**
 * `--scan-discovery on|off` (serve and worker; issue 26): host discovery
 * before an audit's port scan. `off` scans every address of the audit, as
 * nmap -Pn does (docs/audits.md, "Host discovery").
 */
export const scanDiscoveryOption = () =>
  new Option('--scan-discovery <on|off>', 'host discovery before port scans (off: scan every address, as nmap -Pn)')
    .env('VIGIL_SCAN_DISCOVERY')
    .argParser(
      checked((t: string) => {
        if (t !== 'on' && t !== 'off') throw new Error("must be 'on' or 'off'");
        return t === 'on';
      }),
    )
    .default(true, 'on');

/**
 * `--audit-ca FILE` (serve and worker): a PEM bundle of the CAs the audits trust besides Node's bundled
 * roots and the system's bundle (an internal CA, whose certificates vigil.tls.cert-untrusted then
 * accepts). Read once at start: a file without a readable certificate is a usage error, not an audit
 * that silently trusts nothing more.
 */
export const auditCaOption = () =>
  new Option('--audit-ca <file>', "PEM bundle of CAs audits trust besides Node's roots and the system's")
    .env('VIGIL_AUDIT_CA')
    .argParser(checked(readCaBundle));

export function readCaBundle(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const blocks = pemBlocks(text);
  for (const [i, pem] of blocks.entries()) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new Error(`${file}: certificate ${i + 1} cannot be read`);
    }
  }
  if (!blocks.length) throw new Error(`${file}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it`);
  return blocks;
}

/** Turns a plain parser into one commander reports as a usage error. */
export function checked<T>(parse: (text: string) => T) {
  return (text: string): T => {
    try {
      return parse(text);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
}

/** `--audit-workers`: audits one process runs at once; `serve` may say 0 (a `worker` runs them), `worker` may not. */
export const auditWorkers = (min: 0 | 1) => (t: string) => {
  if (!/^(0|[1-9]|[1-5]\d|6[0-4])$/.test(t) || Number(t) < min) throw new Error(`must be ${min} to 64`);
  return Number(t);
};

/** A duration from the environment, at least `least` (e.g. `1s`); undefined when unset. */
function durationFromEnv(name: string, least: string): number | undefined {
  const text = process.env[name];
  if (!text) return undefined;
  const ms = parseDuration(text);
  if (ms < parseDuration(least)) throw new Error(`${name}: at least ${least}`);
  return ms;
}

/**
 * VIGIL_AUDIT_LEASE (no flag: tests and operators who know why): how long a
 * running audit stays held without a renewal; docs/workers.md.
 */
export const auditLeaseMs = () => durationFromEnv('VIGIL_AUDIT_LEASE', '1s');

/**
 * VIGIL_AUDIT_PROBE_TIMEOUT (no flag, as VIGIL_AUDIT_LEASE): how long an audit waits on a port that says
 * nothing (detection, and the checks that take the default). For tests whose target is a tarpit: an audit of
 * one silent port takes 15.7 s at the default 3 s (12.6 of them in detection), which the lease tests paid
 * once per takeover.
 */
export const auditProbeTimeoutMs = () => durationFromEnv('VIGIL_AUDIT_PROBE_TIMEOUT', '50ms');

/**
 * `--config FILE`: the command's own flags as `key = value` lines (src/cli/config-file.ts). With
 * `configFileHook`, which reads it once the command line and the environment are parsed.
 */
export const configOption = (env: string) =>
  new Option('--config <file>', 'file of these settings as key = value lines (flags and env override it)').env(env);

/** Reads `--config` into the options that the command line and the environment left at their defaults. */
export function configFileHook(cmd: Command): void {
  const file = cmd.opts().config;
  if (file) applyConfigFile(cmd, file);
}

export const logLevelOption = () =>
  new Option('--log-level <level>', 'fatal|error|warn|info|debug|silent; logs go to stderr')
    .env('VIGIL_LOG_LEVEL')
    .default(DEFAULTS.logLevel);

export const logFormatOption = () =>
  new Option('--log-format <fmt>', 'json | pretty | auto (pretty when stderr is a terminal)')
    .env('VIGIL_LOG_FORMAT')
    .argParser(checked((t) => logFormat(t)))
    .default(logFormat('auto'), 'auto');

export const metricsPortOption = () =>
  new Option('--metrics-port <n>', 'Prometheus /metrics and /healthz over plain HTTP (0: off)')
    .env('VIGIL_METRICS_PORT')
    .argParser(checked(parsePort))
    .default(DEFAULTS.metricsPort);

/** Loopback by default whatever `--listen` says: the listener has no TLS and no login (docs/operations.md). */
export const metricsListenOption = () =>
  new Option('--metrics-listen <host>', 'address of the metrics listener (not --listen: no TLS, no login)')
    .env('VIGIL_METRICS_LISTEN')
    .default(DEFAULTS.metricsListen);
