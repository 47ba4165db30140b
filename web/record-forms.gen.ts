// Generated from src/dns/rr/ by `npm run gen:record-forms` (src/dns/rr/generated.ts): do not edit.
// A test fails while it differs from what the record table makes.
import type { RecordForm } from './record-forms.ts';

export const RECORD_FORMS: RecordForm[] = [
  {
    "type": "A",
    "script": "dnsAddA.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "blank for the domain itself, * for a wildcard",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "ip",
        "label": "IPv4 address",
        "code": "syntaxInvalidIP"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "AAAA",
    "script": "dnsAddAAAA.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "blank for the domain itself, * for a wildcard",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "ip",
        "label": "IPv6 address",
        "code": "syntaxInvalidIP"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "CNAME",
    "script": "dnsAddCNAME.php",
    "fields": [
      {
        "name": "alias",
        "label": "Alias",
        "code": "syntaxInvalidCNAME",
        "optional": true
      },
      {
        "name": "name",
        "label": "Points to host",
        "code": "syntaxInvalidHostname"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "MX",
    "script": "dnsAddMX.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "usually blank",
        "code": "syntaxInvalidMX",
        "optional": true
      },
      {
        "name": "mxname",
        "label": "Mail server",
        "hint": "end with . if outside this domain",
        "code": "syntaxInvalidHostname"
      },
      {
        "name": "priority",
        "label": "Priority (0-99)",
        "code": "syntaxInvalidPriority"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "NS",
    "script": "dnsAddNS.php",
    "fields": [
      {
        "name": "subdomain",
        "label": "Subdomain",
        "code": "syntaxInvalidSubdomain",
        "optional": true
      },
      {
        "name": "nameserver",
        "label": "Name server (fully qualified)",
        "code": "syntaxInvalidHostname"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "TXT",
    "script": "dnsAddTXT.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "blank for SPF",
        "code": "syntaxInvalidTxtname",
        "optional": true
      },
      {
        "name": "txtdata",
        "label": "Text",
        "code": "syntaxInvalidTxtdata"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "SRV",
    "script": "dnsAddSRV.php",
    "fields": [
      {
        "name": "srvc",
        "label": "Service",
        "hint": "e.g. _sip",
        "code": "syntaxInvalidSrvc"
      },
      {
        "name": "prot",
        "label": "Protocol",
        "hint": "_tcp or _udp",
        "code": "syntaxInvalidProt"
      },
      {
        "name": "host",
        "label": "Host",
        "hint": "blank for the domain itself",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "pri",
        "label": "Priority",
        "code": "syntaxInvalidPriority"
      },
      {
        "name": "weight",
        "label": "Weight",
        "code": "syntaxInvalidWeight"
      },
      {
        "name": "port",
        "label": "Port",
        "code": "syntaxInvalidPort"
      },
      {
        "name": "target",
        "label": "Target host",
        "code": "syntaxInvalidTarget"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "CAA",
    "script": "dnsAddCAA.php",
    "fields": [
      {
        "name": "subdomain",
        "label": "Subdomain",
        "hint": "usually blank",
        "code": "syntaxInvalidSubdomain",
        "optional": true
      },
      {
        "name": "flag",
        "label": "Flag (0-255)",
        "code": "syntaxInvalidFlag"
      },
      {
        "name": "tag",
        "label": "Tag (issue, issuewild, iodef)",
        "code": "syntaxInvalidTag"
      },
      {
        "name": "value",
        "label": "Value"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "PTR",
    "script": "dnsAddPTR.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "blank for the domain itself",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "host",
        "label": "Points to (fully qualified)",
        "hint": "host.example.net",
        "code": "syntaxInvalidHostname"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "DS",
    "script": "dnsAddDS.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "the delegated subdomain",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "keytag",
        "label": "Key tag",
        "code": "syntaxInvalidKeytag"
      },
      {
        "name": "algorithm",
        "label": "Algorithm",
        "code": "syntaxInvalidAlgorithm"
      },
      {
        "name": "digesttype",
        "label": "Digest type",
        "code": "syntaxInvalidDigesttype"
      },
      {
        "name": "digest",
        "label": "Digest (hex)",
        "code": "syntaxInvalidDigest"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "TLSA",
    "script": "dnsAddTLSA.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "_443._tcp.www",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "usage",
        "label": "Usage",
        "code": "syntaxInvalidUsage"
      },
      {
        "name": "selector",
        "label": "Selector",
        "code": "syntaxInvalidSelector"
      },
      {
        "name": "matchingtype",
        "label": "Matching type",
        "code": "syntaxInvalidMatchingtype"
      },
      {
        "name": "data",
        "label": "Association data (hex)",
        "code": "syntaxInvalidData"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "SSHFP",
    "script": "dnsAddSSHFP.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "blank for the domain itself",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "algorithm",
        "label": "Algorithm",
        "code": "syntaxInvalidAlgorithm"
      },
      {
        "name": "fptype",
        "label": "Fingerprint type",
        "code": "syntaxInvalidFptype"
      },
      {
        "name": "fingerprint",
        "label": "Fingerprint (hex)",
        "code": "syntaxInvalidFingerprint"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "SVCB",
    "script": "dnsAddSVCB.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "blank for the domain itself",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "priority",
        "label": "Priority (0 = alias)",
        "code": "syntaxInvalidPriority"
      },
      {
        "name": "target",
        "label": "Target",
        "hint": ". for this name itself",
        "code": "syntaxInvalidTarget"
      },
      {
        "name": "params",
        "label": "Parameters",
        "hint": "alpn=h2,h3 port=8443",
        "code": "syntaxInvalidParams",
        "optional": true
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "HTTPS",
    "script": "dnsAddHTTPS.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "blank for the domain itself",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "priority",
        "label": "Priority (0 = alias)",
        "code": "syntaxInvalidPriority"
      },
      {
        "name": "target",
        "label": "Target",
        "hint": ". for this name itself",
        "code": "syntaxInvalidTarget"
      },
      {
        "name": "params",
        "label": "Parameters",
        "hint": "alpn=h2,h3 port=8443",
        "code": "syntaxInvalidParams",
        "optional": true
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "NAPTR",
    "script": "dnsAddNAPTR.php",
    "fields": [
      {
        "name": "name",
        "label": "Name",
        "hint": "blank for the domain itself",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "order",
        "label": "Order",
        "code": "syntaxInvalidOrder"
      },
      {
        "name": "preference",
        "label": "Preference",
        "code": "syntaxInvalidPreference"
      },
      {
        "name": "flags",
        "label": "Flags",
        "code": "syntaxInvalidFlags",
        "optional": true
      },
      {
        "name": "service",
        "label": "Service",
        "code": "syntaxInvalidService",
        "optional": true
      },
      {
        "name": "regexp",
        "label": "Regexp",
        "code": "syntaxInvalidRegexp",
        "optional": true
      },
      {
        "name": "replacement",
        "label": "Replacement",
        "hint": ". when a regexp is given",
        "code": "syntaxInvalidReplacement"
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "WebForwarding",
    "script": "dnsAddWebForwarding.php",
    "fields": [
      {
        "name": "host",
        "label": "Host",
        "hint": "blank for the domain itself",
        "code": "syntaxInvalidHostname",
        "optional": true
      },
      {
        "name": "target",
        "label": "Forward to URL",
        "code": "syntaxInvalidTarget"
      },
      {
        "name": "cloak",
        "label": "Cloak (1 keeps the address shown)",
        "optional": true
      },
      {
        "name": "ttl",
        "label": "TTL (seconds)",
        "hint": "blank: the zone's TTL",
        "optional": true,
        "code": "syntaxInvalidTTL"
      }
    ]
  },
  {
    "type": "Options",
    "script": "dnsSetOptions.php",
    "fields": [
      {
        "name": "masters",
        "label": "Masters",
        "hint": "slave domains: master addresses, comma-separated",
        "optional": true
      },
      {
        "name": "allowtransferacl",
        "label": "Allow transfer from",
        "optional": true
      },
      {
        "name": "notify",
        "label": "Notify (yes, no, explicit)",
        "optional": true
      },
      {
        "name": "alsonotify",
        "label": "Also notify",
        "optional": true
      }
    ]
  }
];

export const DISPLAY: Record<string, string> = {
  "SOA": "{priNS} {mail} refresh {refresh} retry {retry} expire {exp} min {min}",
  "A": "{name|@} → {data}",
  "AAAA": "{name|@} → {data}",
  "CNAME": "{name|@} → {data}",
  "MX": "{host|@} → {data} (priority {pri})",
  "NS": "{name|@} → {data}",
  "TXT": "{name|@} → {data}",
  "SRV": "_{srvc}._{prot}{.host} {pri} {weight} {port} {target}",
  "CAA": "{name|@} {flag} {tag} \"{caaval}\"",
  "PTR": "{name|@} → {host}",
  "DS": "{name|@} → key {keytag}, algorithm {algorithm}, digest type {digesttype}: {digest}",
  "TLSA": "{name|@} → usage {usage}, selector {selector}, matching type {matchingtype}: {data}",
  "SSHFP": "{name|@} → algorithm {algorithm}, fingerprint type {fptype}: {fingerprint}",
  "SVCB": "{name|@} {priority} {target}{ params}",
  "HTTPS": "{name|@} {priority} {target}{ params}",
  "NAPTR": "{name|@} → {order} {preference} \"{flags}\" \"{service}\" \"{regexp}\" {replacement}",
  "WebForwarding": "{host|@} → {target}",
  "Options": "transfer {allowtransferacl|-}; notify {notify|-}; also {alsonotify|-}"
};

/** The SOA: never deleted, and its minimum is the TTL of records without their own. */
export const SOA_TYPE = "SOA";
export const OPTIONS_TYPE = "Options";
