// Generated from src/dns/rr/ by `npm run gen:record-forms` (src/dns/rr/generated.ts): do not edit.
// A test fails while it differs from what the record table makes.

/** Each record type's add script and fields, as its type in src/dns/rr/ declares them. */
export const RECORD_ADD_FORMS = [
  {
    "script": "dnsAddA.php",
    "summary": "add an A record",
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner: blank (the apex), a host name or `*`"
      },
      {
        "name": "ip",
        "kind": "ipv4",
        "required": true,
        "code": "syntaxInvalidIP",
        "doc": "an IPv4 address"
      }
    ]
  },
  {
    "script": "dnsAddAAAA.php",
    "summary": "add an AAAA record",
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner: blank (the apex), a host name or `*`"
      },
      {
        "name": "ip",
        "kind": "ipv6",
        "required": true,
        "code": "syntaxInvalidIP",
        "doc": "an IPv6 address"
      }
    ]
  },
  {
    "script": "dnsAddCNAME.php",
    "summary": "add a CNAME record",
    "fields": [
      {
        "name": "alias",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidCNAME",
        "doc": "the CNAME (owner) to add"
      },
      {
        "name": "name",
        "kind": "hostname",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "the host name it points to"
      }
    ]
  },
  {
    "script": "dnsAddMX.php",
    "summary": "add an MX record",
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidMX",
        "doc": "owner, usually blank"
      },
      {
        "name": "mxname",
        "kind": "hostname",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "the mail server; another domain fully qualified with a final dot"
      },
      {
        "name": "priority",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidPriority",
        "min": 0,
        "max": 99,
        "doc": "0 to 99"
      }
    ]
  },
  {
    "script": "dnsAddNS.php",
    "summary": "add an NS record (a delegation)",
    "fields": [
      {
        "name": "subdomain",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidSubdomain",
        "doc": "owner, normally a subdomain"
      },
      {
        "name": "nameserver",
        "kind": "hostname",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "the name server, fully qualified"
      }
    ]
  },
  {
    "script": "dnsAddTXT.php",
    "summary": "add a TXT record",
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidTxtname",
        "doc": "owner, blank for the apex (SPF)"
      },
      {
        "name": "txtdata",
        "kind": "text",
        "required": true,
        "code": "syntaxInvalidTxtdata",
        "doc": "the text, up to 4,000 bytes, no control characters"
      }
    ]
  },
  {
    "script": "dnsAddSRV.php",
    "summary": "add an SRV record",
    "domainOptional": true,
    "fields": [
      {
        "name": "srvc",
        "kind": "text",
        "required": true,
        "code": "syntaxInvalidSrvc",
        "doc": "the service, with or without its underscore"
      },
      {
        "name": "prot",
        "kind": "text",
        "required": true,
        "code": "syntaxInvalidProt",
        "doc": "the protocol (`tcp`, `udp`, …), with or without its underscore"
      },
      {
        "name": "host",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner; without `domain`: fully qualified, and the domain is the longest of the account that ends it"
      },
      {
        "name": "pri",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidPriority",
        "min": 0,
        "max": 65535,
        "doc": "0 to 65535"
      },
      {
        "name": "weight",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidWeight",
        "min": 0,
        "max": 65535,
        "doc": "0 to 65535"
      },
      {
        "name": "port",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidPort",
        "min": 0,
        "max": 65535,
        "doc": "0 to 65535"
      },
      {
        "name": "target",
        "kind": "hostname",
        "required": true,
        "code": "syntaxInvalidTarget",
        "doc": "the target host, or `.`"
      }
    ]
  },
  {
    "script": "dnsAddCAA.php",
    "summary": "add a CAA record (also served as dnsAddNS.php)",
    "fields": [
      {
        "name": "subdomain",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidSubdomain",
        "doc": "owner, usually blank"
      },
      {
        "name": "flag",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidFlag",
        "min": 0,
        "max": 255,
        "doc": "0 to 255"
      },
      {
        "name": "tag",
        "kind": "enum",
        "required": true,
        "code": "syntaxInvalidTag",
        "values": [
          "issue",
          "issuewild",
          "iodef"
        ],
        "doc": "the property"
      },
      {
        "name": "value",
        "kind": "text",
        "required": true,
        "doc": "the property value"
      }
    ]
  },
  {
    "script": "dnsAddPTR.php",
    "summary": "add a PTR record",
    "extension": true,
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner relative to the domain: blank (or `@`) for the domain itself, e.g. `1` in 2.0.192.in-addr.arpa"
      },
      {
        "name": "host",
        "kind": "hostname",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "the name it points to, fully qualified (final dot optional); a host name in a reverse zone"
      }
    ]
  },
  {
    "script": "dnsAddDS.php",
    "summary": "add a DS record (a signed delegation)",
    "extension": true,
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner relative to the domain: the delegated subdomain (never blank: the domain's own DS is at its parent)"
      },
      {
        "name": "keytag",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidKeytag",
        "min": 0,
        "max": 65535,
        "doc": "the key tag of the child's key (RFC 4034 5.1.1), 0 to 65535"
      },
      {
        "name": "algorithm",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidAlgorithm",
        "min": 1,
        "max": 255,
        "doc": "the key's DNSSEC algorithm number: 3, 5-8, 10, 12-17, 23, 253 or 254 (13 ECDSAP256SHA256 is usual)"
      },
      {
        "name": "digesttype",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidDigesttype",
        "min": 1,
        "max": 4,
        "doc": "1 SHA-1, 2 SHA-256, 3 GOST R 34.11-94 or 4 SHA-384"
      },
      {
        "name": "digest",
        "kind": "hex",
        "required": true,
        "code": "syntaxInvalidDigest",
        "doc": "the digest in hex, any case: 40 digits for SHA-1, 64 for SHA-256 and GOST, 96 for SHA-384"
      }
    ]
  },
  {
    "script": "dnsAddTLSA.php",
    "summary": "add a TLSA record (DANE)",
    "extension": true,
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner relative to the domain: `_port._protocol` then the host, e.g. `_443._tcp.www`, `_25._tcp.mail`, `_443._tcp` for the domain itself"
      },
      {
        "name": "usage",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidUsage",
        "min": 0,
        "max": 3,
        "doc": "certificate usage: 0 PKIX-TA, 1 PKIX-EE, 2 DANE-TA, 3 DANE-EE"
      },
      {
        "name": "selector",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidSelector",
        "min": 0,
        "max": 1,
        "doc": "selector: 0 the full certificate, 1 its SubjectPublicKeyInfo"
      },
      {
        "name": "matchingtype",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidMatchingtype",
        "min": 0,
        "max": 2,
        "doc": "matching type: 0 the selected content itself, 1 its SHA-256, 2 its SHA-512"
      },
      {
        "name": "data",
        "kind": "hex",
        "required": true,
        "code": "syntaxInvalidData",
        "doc": "certificate association data in hex, any case: 64 digits for SHA-256, 128 for SHA-512, the DER (at most 4096 bytes) for matching type 0"
      }
    ]
  },
  {
    "script": "dnsAddSSHFP.php",
    "summary": "add an SSHFP record (an SSH host key fingerprint)",
    "extension": true,
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner relative to the domain: the SSH host, blank (or `@`) for the domain itself"
      },
      {
        "name": "algorithm",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidAlgorithm",
        "min": 1,
        "max": 6,
        "doc": "the host key's algorithm: 1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519 or 6 Ed448"
      },
      {
        "name": "fptype",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidFptype",
        "min": 1,
        "max": 2,
        "doc": "fingerprint type: 1 SHA-1 or 2 SHA-256"
      },
      {
        "name": "fingerprint",
        "kind": "hex",
        "required": true,
        "code": "syntaxInvalidFingerprint",
        "doc": "the fingerprint in hex, any case: 40 digits for SHA-1, 64 for SHA-256 (`ssh-keygen -r` prints them)"
      }
    ]
  },
  {
    "script": "dnsAddSVCB.php",
    "summary": "add an SVCB record (RFC 9460 service binding)",
    "extension": true,
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner: blank (the apex), a host name, `*`, or a service name such as `_8443._https.api`"
      },
      {
        "name": "priority",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidPriority",
        "min": 0,
        "max": 65535,
        "doc": "SvcPriority: 0 is AliasMode (no params), 1 to 65535 ServiceMode, lower preferred"
      },
      {
        "name": "target",
        "kind": "hostname",
        "required": true,
        "code": "syntaxInvalidTarget",
        "doc": "TargetName: a fully qualified host name (final dot optional), or `.` for the owner itself"
      },
      {
        "name": "params",
        "kind": "text",
        "required": false,
        "code": "syntaxInvalidParams",
        "doc": "SvcParams in zone-file form, e.g. `alpn=h2,h3 port=8443` (RFC 9460); at most 2000 characters; none in AliasMode"
      }
    ]
  },
  {
    "script": "dnsAddHTTPS.php",
    "summary": "add an HTTPS record (RFC 9460 service binding)",
    "extension": true,
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner: blank (the apex), a host name, `*`, or a service name such as `_8443._https.api`"
      },
      {
        "name": "priority",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidPriority",
        "min": 0,
        "max": 65535,
        "doc": "SvcPriority: 0 is AliasMode (no params), 1 to 65535 ServiceMode, lower preferred"
      },
      {
        "name": "target",
        "kind": "hostname",
        "required": true,
        "code": "syntaxInvalidTarget",
        "doc": "TargetName: a fully qualified host name (final dot optional), or `.` for the owner itself"
      },
      {
        "name": "params",
        "kind": "text",
        "required": false,
        "code": "syntaxInvalidParams",
        "doc": "SvcParams in zone-file form, e.g. `alpn=h2,h3 port=8443` (RFC 9460); at most 2000 characters; none in AliasMode"
      }
    ]
  },
  {
    "script": "dnsAddNAPTR.php",
    "summary": "add a NAPTR record",
    "extension": true,
    "fields": [
      {
        "name": "name",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner relative to the domain: blank (or `@`) for the domain itself, or e.g. an ENUM number `4.3.2.1`"
      },
      {
        "name": "order",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidOrder",
        "min": 0,
        "max": 65535,
        "doc": "0 to 65535: records are tried in increasing order"
      },
      {
        "name": "preference",
        "kind": "integer",
        "required": true,
        "code": "syntaxInvalidPreference",
        "min": 0,
        "max": 65535,
        "doc": "0 to 65535: among records of one order, lower first"
      },
      {
        "name": "flags",
        "kind": "text",
        "required": false,
        "code": "syntaxInvalidFlags",
        "doc": "letters and digits, possibly none; at most one of S, A, U and P (e.g. `U` for ENUM, `S` for SIP)"
      },
      {
        "name": "service",
        "kind": "text",
        "required": false,
        "code": "syntaxInvalidService",
        "doc": "the service parameters, e.g. `E2U+sip` or `SIP+D2U`: visible ASCII, at most 255 characters"
      },
      {
        "name": "regexp",
        "kind": "text",
        "required": false,
        "code": "syntaxInvalidRegexp",
        "doc": "empty, or a substitution `!ere!repl!` (RFC 3402 3.2) such as `!^.*$!sip:info@example.com!`; at most 255 bytes"
      },
      {
        "name": "replacement",
        "kind": "hostname",
        "required": true,
        "code": "syntaxInvalidReplacement",
        "doc": "the next name to look up, fully qualified (final dot optional), or `.` for none (always `.` with a regexp)"
      }
    ]
  },
  {
    "script": "dnsAddWebForwarding.php",
    "summary": "extension: forward a host to a URL; the domain then weighs 2 credits",
    "extension": true,
    "fields": [
      {
        "name": "host",
        "kind": "owner",
        "required": true,
        "code": "syntaxInvalidHostname",
        "doc": "owner, blank for the apex"
      },
      {
        "name": "target",
        "kind": "url",
        "required": true,
        "code": "syntaxInvalidTarget",
        "doc": "an http(s) URL"
      },
      {
        "name": "cloak",
        "kind": "enum",
        "required": false,
        "values": [
          "",
          "0",
          "1"
        ],
        "doc": "`1`: keep the address shown (a frame)"
      }
    ]
  }
] as const;
