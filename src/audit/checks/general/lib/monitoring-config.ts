/**
 * What a finding may say about a Prometheus or Alertmanager configuration
 * that a server handed out (GET /api/v1/status/config, GET /api/v2/status):
 * its jobs, receivers and the hosts it names, and which credential fields it
 * holds, never their values. Prometheus and Alertmanager print their
 * `Secret` fields as `<secret>` already, but not every field that holds a
 * secret is one (Alertmanager 0.25 prints a webhook URL, tokens in its path
 * and all, measured), and other servers copying the API need not mask at
 * all: every value of a credential-like key is dropped here, and URLs keep
 * only their scheme and host.
 */

/** Keys whose value is a secret in Prometheus's and Alertmanager's configuration formats. */
const SECRET_KEY =
  /^(?:\w*password\w*|\w*secret\w*|\w*token\w*|credentials|\w*api_key\w*|routing_key|service_key|auth_key|key_file|webhook_url|api_url|bot_token)$/i;

/** scheme://host[:port]/... with the user, path and query dropped (a Slack or Teams webhook's path is its token). */
export function maskedUrl(url: string): string {
  const m = /^([a-z][\w+.-]*:\/\/)(?:[^@/\s]*@)?([^/\s?#]+)(.*)$/i.exec(url.trim());
  if (!m) return '...';
  return `${m[1]}${m[2]}${m[3] && m[3] !== '/' ? '/...' : ''}`;
}

export interface ConfigSummary {
  /** scrape_configs job names, or receiver names. */
  names: string[];
  /** Credential keys present with a value (never the value). */
  secrets: string[];
  /** Hosts and URLs the configuration names (URLs masked). */
  hosts: string[];
}

const uniq = (xs: string[]) => [...new Set(xs)];
const unquote = (v: string) => v.trim().replace(/^(['"])(.*)\1$/, '$2');

/**
 * Reads the YAML line by line (the server's own marshalling: one key per
 * line, lists as `- item`), enough to list names, credential keys and
 * hosts; nothing here is parsed as a whole document.
 */
export function summarizeConfig(yaml: string, listKey: 'job_name' | 'name'): ConfigSummary {
  const names: string[] = [];
  const secrets: string[] = [];
  const hosts: string[] = [];
  let inTargets = false;
  for (const line of yaml.split('\n')) {
    const kv = /^\s*(?:-\s+)?([\w.-]+):\s*(.*)$/.exec(line);
    if (kv) {
      const [, key, raw] = kv as unknown as [string, string, string];
      const value = unquote(raw);
      inTargets = key === 'targets' && value === '';
      // receivers' `- name:`, scrape jobs' `- job_name:` (a list item: the key follows the dash).
      if (key === listKey && /^\s*-\s/.test(line) && value) names.push(value);
      else if (SECRET_KEY.test(key) && value && value !== '""') secrets.push(key);
      // Receivers' URLs and the mail relay; global's *_api_url defaults are the vendors' public endpoints.
      else if ((key === 'url' || key === 'proxy_url') && value) hosts.push(maskedUrl(value));
      else if (key === 'smtp_smarthost' && value) hosts.push(value);
      continue;
    }
    const item = /^\s*-\s+(\S+)\s*$/.exec(line);
    if (inTargets && item) hosts.push(unquote(item[1]!));
    else if (!item) inTargets = false;
  }
  return { names: uniq(names), secrets: uniq(secrets), hosts: uniq(hosts) };
}

/** "a, b, c, … (N)" for a detail: at most `max` items. */
export const listed = (xs: readonly string[], max = 6) =>
  xs.length ? `${xs.slice(0, max).join(', ')}${xs.length > max ? `, ... (${xs.length} in all)` : ''}` : 'none';

/** The credential keys as a detail says them: present, values withheld. */
export const secretsNote = (keys: readonly string[]) =>
  keys.length
    ? `; credential fields present: ${listed(keys)} (values withheld from this report)`
    : '; no credential fields';
