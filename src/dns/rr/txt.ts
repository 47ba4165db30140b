import { fail } from '../../errors.ts';
import { isCleanText, quoted, txtStrings } from '../text.ts';
import { ownerField, type RecordType, type Stored } from './kit.ts';

export type TxtData = Stored & { name: string; data: string };

/** 4000 bytes keeps a TXT set answerable over UDP with EDNS (docs/dns.md). */
const MAX_TXT_BYTES = 4000;

/** The text as <=255-byte character-strings (RFC 1035 3.3.14), as dns-packet takes them. */
function txtData(text: string): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 255) parts.push(bytes.subarray(i, i + 255));
  return parts;
}

const strings = (w: unknown): (Buffer | string)[] => (Array.isArray(w) ? w : [w as Buffer | string]);

/** TXT: `name` the owner (service labels like `_dmarc` allowed), `txtdata` any clean text. */
export const TXT = {
  type: 'TXT',
  add: {
    script: 'dnsAddTXT.php',
    summary: 'add a TXT record',
    fields: [
      {
        name: 'name',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidTxtname',
        doc: 'owner, blank for the apex (SPF)',
        label: 'Name',
        hint: 'blank for SPF',
        blank: true,
      },
      {
        name: 'txtdata',
        kind: 'text',
        required: true,
        code: 'syntaxInvalidTxtdata',
        doc: 'the text, up to 4,000 bytes, no control characters',
        label: 'Text',
      },
    ],
    example: { name: '', txtdata: 'v=spf1 mx -all' },
  },
  wire: {
    type: 'TXT',
    encode: (d) => txtData(d.data),
    // Several character-strings are one text, joined as SPF and DKIM read them (RFC 7208 3.3).
    decode: (w, name) => ({
      name,
      data: strings(w)
        .map((b) => b.toString())
        .join(''),
    }),
    present: (w) =>
      strings(w)
        .map((s) => quoted(Buffer.from(s)))
        .join(' '),
  },
  // 4,000 bytes of text, JSON escaping at most doubling it (\u escapes of controls are refused).
  bound: 8320,
  display: '{name|@} → {data}',
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
  owner: (d) => d.name,
  rdata: (d) => txtStrings(String(d.data)),
  fromText: (owner, rdata) => ({ name: owner, txtdata: Buffer.concat(rdata.map((t) => t.bytes)).toString('utf8') }),
} as const satisfies RecordType<TxtData, 'TXT'>;
