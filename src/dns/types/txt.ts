import { fail } from '../../errors.ts';
import { isCleanText, txtStrings } from '../text.ts';
import { line, ownerField, type RecordType } from './shape.ts';

/** 4000 bytes keeps a TXT set answerable over UDP with EDNS (docs/dns.md). */
const MAX_TXT_BYTES = 4000;

/** TXT: `name` the owner (service labels like `_dmarc` allowed), `txtdata` any clean text. */
export const TXT: RecordType = {
  type: 'TXT',
  parse(f, zone) {
    const name = ownerField(f.name, zone, 'syntaxInvalidTxtname', { wildcard: true, underscore: true });
    const text = f.txtdata;
    // Length first: a huge value is refused before it is scanned.
    if (
      text === undefined ||
      text === '' ||
      text.length > MAX_TXT_BYTES ||
      Buffer.byteLength(text) > MAX_TXT_BYTES ||
      !isCleanText(text)
    ) {
      fail('syntaxInvalidTxtdata');
    }
    return { name, data: text };
  },
  reply: (d) => ({ name: d.name, data: d.data }),
  zoneLines: (d, zone, ttl) => [line(d.name, zone, ttl, 'TXT', txtStrings(String(d.data)))],
  owner: (d) => d.name,
  // Several character-strings are one text, joined as SPF and DKIM read them (RFC 7208 3.3).
  fromText: (owner, rdata) => ({ name: owner, txtdata: Buffer.concat(rdata.map((t) => t.bytes)).toString('utf8') }),
};
