/** DNS scripts on domains and zone settings (spec 5-9, 18-21). Every one needs a DNS subscription. */

/** `domain` as most DNS scripts take it: the domain checks its syntax first, so the table can. */
export const DOMAIN = {
  required: true,
  kind: 'domain',
  code: 'syntaxInvalidDomain',
  checkedBy: 'table',
  doc: 'the domain name, with or without its final dot, any case, Unicode or A-labels',
} as const;

const FIGURES = {
  domaincount: { type: 'number' },
  domainweight: { type: 'number' },
  expiryjtime: { type: 'number', doc: 'subscription expiry, seconds since 1970' },
  expiryreadable: { type: 'string' },
} as const;

const PUBLISH_LISTS = {
  warnings: { type: 'array', items: { type: 'string' }, optional: true },
  errors: {
    type: 'array',
    items: { type: 'string' },
    optional: true,
    doc: 'present: the domain cannot be published as is',
  },
} as const;

const DNS = { requires: ['session', 'dnsSubscription'], storeDownError: 'dbConnectionFailure' } as const;
const CHANGE = { ...DNS, systemError: 'unspecifiedError' } as const;

export const dnsDomainContracts = {
  'dnsGetDomainList.php': {
    ...DNS,
    summary: "the account's domains and subscription",
    params: {},
    reply: {
      ...FIGURES,
      nextDistribution: { type: 'string', doc: 'extension: when versions waiting now go live' },
      domains: {
        type: 'map',
        optional: true,
        doc: "keyed by the domain's seq; absent when there are none",
        values: {
          type: 'object',
          fields: {
            domain: { type: 'string' },
            seq: { type: 'number' },
            weight: { type: 'number' },
            state: { type: 'number' },
            stateText: { type: 'string' },
            hold: { type: 'boolean', doc: 'extension: on operator hold' },
            servedSerial: {
              type: 'number',
              nullable: true,
              doc: 'extension: the serial the name servers answer with; null while not served',
            },
          },
        },
      },
    },
    errors: [],
    systemError: 'dnsDomainRetrievalFailure',
  },
  'dnsGetDomainRecords.php': {
    ...DNS,
    summary: "one domain's records",
    params: { domain: DOMAIN },
    reply: {
      domain: { type: 'string' },
      state: { type: 'number' },
      stateText: { type: 'string' },
      hold: { type: 'boolean', doc: 'extension: on operator hold' },
      ds: {
        type: 'array',
        items: { type: 'string' },
        optional: true,
        doc: 'extension: present when the domain is signed (DNSSEC): the DS records to give the parent',
      },
      records: {
        type: 'map',
        doc: "keyed by the record's seq",
        values: {
          type: 'object',
          fields: {
            seq: { type: 'string' },
            type: { type: 'string' },
            data: { type: 'map', values: { type: 'scalar' } },
          },
        },
      },
    },
    errors: ['noSuchDomain'],
    systemError: 'dnsDomainRetrievalFailure',
  },
  'dnsAddDomain.php': {
    ...DNS,
    summary: 'add a domain (default NS and SOA records for a master)',
    params: {
      // The domain checks these three in this order, before any state: the table can.
      aup: {
        required: true,
        kind: 'enum',
        values: ['YES'],
        code: 'mustAcceptAUP',
        checkedBy: 'table',
        doc: 'must be `YES`: the acceptable-use policy is accepted',
      },
      domain: DOMAIN,
      domaintype: {
        required: true,
        kind: 'enum',
        values: ['master', 'slave'],
        code: 'syntaxInvalidDomainType',
        checkedBy: 'table',
        doc: '`master` or `slave`',
      },
    },
    reply: {},
    errors: ['unableToAddDuplicate', 'unspecifiedError'],
    systemError: 'unableToAddSystem',
  },
  'dnsDeleteDomain.php': {
    ...CHANGE,
    summary: 'delete a domain; the name servers drop it within a cycle',
    params: { domain: DOMAIN },
    reply: FIGURES,
    errors: ['domainNotDeleted'],
  },
  'dnsDeleteRecord.php': {
    ...CHANGE,
    summary: 'delete a record by its seq',
    params: {
      seq: {
        required: true,
        kind: 'seq',
        code: 'syntaxInvalidSeq',
        checkedBy: 'table',
        doc: "the record's seq from dnsGetDomainRecords",
      },
    },
    reply: {},
    errors: ['recordNotDeleted'],
  },
  'dnsSetSOA.php': {
    ...CHANGE,
    summary: "set the SOA's admin address and/or minimum TTL (also served as dnsAddTXT.php)",
    params: {
      domain: DOMAIN,
      admin: {
        required: false,
        kind: 'email',
        code: 'syntaxInvalidAdmin',
        checkedBy: 'domain',
        doc: 'admin address `local@domain`',
      },
      ttl: {
        required: false,
        kind: 'integer',
        min: 60,
        max: 2419200,
        code: 'syntaxInvalidTTL',
        checkedBy: 'domain',
        doc: 'minimum TTL in seconds',
      },
    },
    reply: {},
    errors: ['noSuchDomain', 'missingInput'],
  },
  'dnsSetOptions.php': {
    ...CHANGE,
    summary: 'set zone options: masters, transfer ACL, notify (also served as dnsAddTXT.php)',
    params: {
      domain: DOMAIN,
      masters: {
        required: true,
        kind: 'addresses',
        code: 'syntaxInvalidMasters',
        checkedBy: 'domain',
        doc: "masters' addresses (`ip` or `ip:port`), comma-separated; may be blank for a master domain",
      },
      allowtransferacl: {
        required: false,
        kind: 'addresses',
        code: 'syntaxInvalidAllowtransferacl',
        checkedBy: 'domain',
        doc: 'addresses or CIDRs allowed to transfer',
      },
      notify: {
        required: false,
        kind: 'enum',
        values: ['', 'yes', 'no', 'explicit'],
        code: 'syntaxInvalidNotify',
        checkedBy: 'domain',
        doc: 'NOTIFY policy',
      },
      alsonotify: {
        required: false,
        kind: 'addresses',
        code: 'syntaxInvalidAlsoNotify',
        checkedBy: 'domain',
        doc: 'extra addresses to notify; needs notify `yes` or `explicit`',
      },
    },
    reply: {},
    errors: ['noSuchDomain', 'logicAlsoNotifyRequiresNotify'],
  },
  'dnsPublish.php': {
    ...CHANGE,
    summary: 'validate the zone and queue it for the name servers (also served as dnsAddTXT.php)',
    params: { domain: DOMAIN },
    reply: {
      ...PUBLISH_LISTS,
      nextDistribution: { type: 'string', optional: true, doc: 'extension: when the version waiting now goes live' },
    },
    errors: ['noSuchDomain'],
  },
  'dnsBuildZone.php': {
    ...CHANGE,
    summary: 'the zone text a publish now would produce',
    params: { domain: DOMAIN },
    reply: {
      zone: { type: 'string' },
      dnssec: {
        type: 'string',
        optional: true,
        doc: 'extension: present when the domain is signed: the text is the unsigned zone, signed at each distribution (dnsGetDNSSEC.php gives the keys)',
      },
    },
    errors: ['noSuchDomain'],
  },
} as const;
