/**
 * The zones of test/zone-health.test.ts: a healthy one and others that
 * each plant problems, as master-file text for dnsImportZone.php, and the
 * root and parent zones Knot serves around them. Addresses (127.0.30.x,
 * which no other test uses): .1 root, .2 parent `test.`, .3 recursive
 * BIND, .4 Vigil, .6 a good mail and web host, .7 nothing, .10 an open
 * relay without STARTTLS, .11 a host with a certificate for another name,
 * .8 a black hole for DNS. 127.0.29.9 is outside the account's grant:
 * nothing may reach it.
 */
export const ROOT = '127.0.30.1';
export const PARENT = '127.0.30.2';
export const RESOLVER = '127.0.30.3';
export const VIGIL = '127.0.30.4';
export const GOOD_HOST = '127.0.30.6';
export const DEAD = '127.0.30.7';
export const RELAY_HOST = '127.0.30.10';
export const WRONG_CERT_HOST = '127.0.30.11';
export const FENCED = '127.0.29.9';
/** Takes DNS questions and never answers: the resolver waits its full time-outs on what it delegates to. */
export const BLACK_HOLE = '127.0.30.8';

const SOA = (ns: string) => `@ 3600 IN SOA ${ns} hostmaster.test. 1 3600 600 1209600 300\n`;

export const rootZone = `$ORIGIN .
${SOA('a.root.test.')}. 3600 IN NS a.root.test.
a.root.test. 3600 IN A ${ROOT}
test. 3600 IN NS ns1.test.
ns1.test. 3600 IN A ${PARENT}
`;

const vigilNs = (zone: string) => [1, 2, 3, 4].map((i) => `${zone} 60 IN NS ns${i}.vigil.test.`).join('\n');

/** The parent `test.`: delegations as each case needs them; `ds` adds DS lines (owner-relative). */
export function parentZone(ds: string[]): string {
  return `$ORIGIN test.
${SOA('ns1.test.')}@ 3600 IN NS ns1.test.
ns1 3600 IN A ${PARENT}
${[1, 2, 3, 4].map((i) => `ns${i}.vigil 3600 IN A ${VIGIL}`).join('\n')}
dead.vigil 3600 IN A ${DEAD}
parent.vigil 3600 IN A ${PARENT}
${vigilNs('good')}
${vigilNs('bad')}
${vigilNs('spf')}
${vigilNs('mta')}
${vigilNs('ds-bad')}
${vigilNs('ds-sha1')}
${vigilNs('nods')}
${vigilNs('deleg')}
deleg 60 IN NS dead.vigil.test.
deleg 60 IN NS parent.vigil.test.
${vigilNs('glue')}
glue 60 IN NS ns.glue.test.
ns.glue 60 IN A ${VIGIL}
one 60 IN NS ns1.vigil.test.
serial 60 IN NS ns1.vigil.test.
serial 60 IN NS parent.vigil.test.
${vigilNs('many')}
dark 60 IN NS hole.vigil.test.
hole.vigil 60 IN A ${BLACK_HOLE}
${ds.join('\n')}
`;
}

/** serial.test as the parent's server also serves it, with another serial than Vigil's. */
export const serialZone = `$ORIGIN serial.test.
@ 60 IN SOA ns1.vigil.test. hostmaster.serial.test. 7 3600 600 1209600 300
@ 60 IN NS ns1.vigil.test.
@ 60 IN NS parent.vigil.test.
`;

/** Records imported into each Vigil zone (beside the default SOA and ns1-ns4.vigil.test). */
export const ZONES: Record<string, string> = {
  'good.test': `@ IN A ${GOOD_HOST}
www IN A ${GOOD_HOST}
@ IN MX 10 mail.good.test.
mail IN A ${GOOD_HOST}
@ IN TXT "v=spf1 mx -all"
_dmarc IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc@good.test"
_mta-sts IN TXT "v=STSv1; id=20261127"
_smtp._tls IN TXT "v=TLSRPTv1; rua=mailto:tls-reports@good.test"
@ IN CAA 0 issue "letsencrypt.org"
`,
  'bad.test': `@ IN TXT "v=spf1 +all"
@ IN TXT "v=spf1 ip4:300.1.1.1 ?all"
@ IN MX 10 mail.bad.test.
@ IN MX 20 alias.bad.test.
@ IN MX 30 gone.bad.test.
mail IN A ${RELAY_HOST}
alias IN CNAME mail.bad.test.
old IN CNAME nothing.test.
_sip._tcp IN SRV 10 5 5060 sip.nowhere.test.
sub IN NS ns.nowhere.test.
*.w IN A ${GOOD_HOST}
x.w IN TXT "hello"
@ IN A ${WRONG_CERT_HOST}
www IN A ${DEAD}
short 5 IN A ${GOOD_HOST}
`,
  'spf.test': `@ IN TXT "v=spf1 ${Array.from({ length: 11 }, (_, i) => `include:s${i}.spf.test`).join(' ')} -all"
${Array.from({ length: 11 }, (_, i) => `s${i} IN TXT "v=spf1 -all"`).join('\n')}
_dmarc IN TXT "v=DMARC1; p=none; rua=dmarc@spf.test"
@ IN CAA 0 issue ";"
www IN A ${FENCED}
`,
  'mta.test': `@ IN MX 10 mail.mta.test.
@ IN MX 20 mx2.mta.test.
mail IN A ${GOOD_HOST}
mx2 IN A ${WRONG_CERT_HOST}
@ IN TXT "v=spf1 mx -all"
_dmarc IN TXT "v=DMARC1; p=reject"
`,
  'ds-bad.test': '',
  'ds-sha1.test': '',
  'nods.test': '',
  'deleg.test': '',
  'glue.test': `@ IN NS ns.glue.test.
ns IN A ${VIGIL}
ns IN A ${DEAD}
`,
  'one.test': '',
  'serial.test': '@ IN NS parent.vigil.test.\n',
  'orphan.test': '',
  // 20 names whose targets only a server that never answers could tell about.
  'many.test': Array.from({ length: 20 }, (_, i) => `n${i} IN CNAME x${i}.dark.test.`).join('\n'),
};

/** Zones whose default NS records other than ns1.vigil.test are deleted. */
export const ONLY_NS1 = ['one.test', 'serial.test'];
export const SIGNED = { nsec3: ['good.test', 'ds-sha1.test', 'ds-bad.test'], nsec: ['nods.test'] };
