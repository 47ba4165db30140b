import { fail } from '../../errors.ts';
import { need, ownerField, type RecordType, type Stored } from './kit.ts';

export type WebForwardingData = Stored & { host: string; target: string; cloak: number };

const MAX_URL = 2000;
/** Whitespace, controls (NUL included), lone surrogates, U+FFFD: never part of a target URL. */
const BAD_URL_TEXT = /[\s\p{Cc}\p{Cs}\ufffd]/u;

function targetUrl(text: string | undefined): string | null {
  if (text === undefined || text.length > MAX_URL || BAD_URL_TEXT.test(text) || !/^https?:\/\//i.test(text))
    return null;
  try {
    const url = new URL(text);
    return url.hostname === '' ? null : url.href;
  } catch {
    return null;
  }
}

/**
 * WebForwarding: `host` the forwarded name, `target` an http(s) URL stored
 * as the URL parser writes it (`"` and `<` percent-encoded), `cloak` 0|1
 * (0 when absent or blank). Not a zone record: the name server answers
 * for the host with the forwarder's address itself.
 */
export const WebForwarding = {
  type: 'WebForwarding',
  role: 'forward',
  add: {
    script: 'dnsAddWebForwarding.php',
    summary: 'extension: forward a host to a URL; the domain then weighs 2 credits',
    extension: true,
    fields: [
      {
        name: 'host',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'owner, blank for the apex',
        label: 'Host',
        hint: 'blank for the domain itself',
        blank: true,
      },
      {
        name: 'target',
        kind: 'url',
        required: true,
        code: 'syntaxInvalidTarget',
        doc: 'an http(s) URL',
        label: 'Forward to URL',
      },
      {
        name: 'cloak',
        kind: 'enum',
        required: false,
        values: ['', '0', '1'],
        doc: '`1`: keep the address shown (a frame)',
        label: 'Cloak (1 keeps the address shown)',
      },
    ],
    example: { host: 'go', target: 'https://www.example.org/landing', cloak: '0' },
  },
  // A URL of at most 2,000 characters, JSON escaping doubling it at worst.
  bound: 4720,
  display: '{host|@} → {target}',
  parse(f, zone) {
    const host = ownerField(f.host, zone, 'syntaxInvalidHostname');
    const target = need(targetUrl(f.target), 'syntaxInvalidTarget');
    // The spec has no code for cloak: a bad one means the record was not added.
    const cloak =
      f.cloak === undefined || f.cloak === ''
        ? 0
        : f.cloak === '0' || f.cloak === '1'
          ? Number(f.cloak)
          : fail('unspecifiedError');
    return { host, target, cloak };
  },
  reply: (d) => ({ host: d.host, target: d.target, cloak: d.cloak }),
  owner: (d) => d.host,
} as const satisfies RecordType<WebForwardingData, 'WebForwarding'>;
