/**
 * `scaninfo` of saGetAuditReport (spec 2.3), with the extension fields under `basic` that say what ran
 * (docs/audits.md).
 */
const str = { type: 'string' } as const;
const num = { type: 'number' } as const;

export const SCANINFO = {
  type: 'object',
  doc: 'the report, written once when the audit ends',
  fields: {
    basic: {
      type: 'object',
      fields: {
        detail_supplement: num,
        ejtime: str,
        hostip: str,
        merge: num,
        mergelist: str,
        promocode: str,
        qjtime: num,
        reporttype: str,
        scanattr: str,
        scanportstcp: str,
        scantype: str,
        scanuid: num,
        sjtime: num,
        title: str,
        totalnaslentries: num,
        // Extensions (issue 15): what ran and a one-sentence summary; spec clients ignore them.
        portsScanned: { ...num, optional: true },
        checksRun: { ...num, optional: true },
        nse: {
          type: 'object',
          optional: true,
          fields: { ran: { type: 'boolean' }, version: { ...str, optional: true } },
        },
        summary: { ...str, optional: true },
        // Extensions (issue 26): host discovery and what the scan saw on each address.
        discovery: { type: 'boolean', optional: true },
        hostsUp: { ...num, optional: true },
        hostsDown: { ...num, optional: true },
        hosts: {
          type: 'array',
          optional: true,
          doc: 'per address: up or down, RTT, ports scanned, open/closed/filtered/unreachable counts (docs/audits.md)',
          items: {
            type: 'object',
            fields: {
              ip: str,
              state: { type: 'string', enum: ['up', 'down'] },
              reason: str,
              rtt: { ...num, nullable: true },
              portsScanned: num,
              open: num,
              closed: num,
              filtered: num,
              unreachable: { ...num, optional: true },
              dropped: { type: 'boolean' },
            },
          },
        },
      },
    },
    entries: {
      type: 'map',
      optional: true,
      doc: 'risk group (high, medium, low, other) -> entry key -> entry',
      values: {
        type: 'map',
        values: {
          type: 'object',
          fields: {
            repid: str,
            id: str,
            shortid: str,
            ip: str,
            port: str,
            cat: str,
            cve: str,
            entrykey: str,
            risk: { type: 'string', enum: ['high', 'medium', 'low', 'other'] },
            shortkey: num,
            static_description: str,
            description: str,
            title: str,
            type: { type: 'string', enum: ['LOG', 'NOTE', 'HOLE'] },
            baseline: str,
          },
        },
      },
    },
    ports: {
      type: 'array',
      items: {
        type: 'object',
        fields: { repid: str, hostip: str, portend: num, portnum: str, portprot: str, portservice: str },
      },
    },
    // Findings only: not the detection, resolved or failed-audit entries (src/audit/report-count.ts).
    risk: { type: 'map', values: num, doc: 'findings per risk group, absent at 0 (docs/audits.md)' },
    riskcatgrid: { type: 'map', values: num, doc: 'findings per `<category>:<risk>`' },
  },
} as const;
