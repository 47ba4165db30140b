import { fail } from '../../errors.ts';
import { need, ownerField, type RecordType } from './shape.ts';

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
export const WebForwarding: RecordType = {
  type: 'WebForwarding',
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
  zoneLines: () => [],
  owner: (d) => d.host,
};
