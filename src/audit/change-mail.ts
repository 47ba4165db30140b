import type { Change } from './changes.ts';
import type { Mail } from './mailer.ts';
import { RISK_LABEL } from './render/model.ts';
import { wrap } from './render/text.ts';

/** Changes the mail's text names; the attached report has every finding. */
export const CHANGES_SHOWN = 20;

/** 76 columns, as the rest of the mail (notify.ts: RFC 2045's limit keeps the body 7bit). */
const LINE = 76;

/** What the comparison found: changes since the run `previous`, or the schedule's first run. */
export type Comparison = { first: true } | { first: false; previous: number; changes: Change[] };

/**
 * A scheduled run's mail (alert=always or changes): the completion mail
 * (notify.ts) with what changed since the schedule's previous run put
 * first, before the summary, and counted in the subject
 * (`… [2 new, 1 resolved]`). Titles come from the report, as the
 * completion mail's own list; wrap() replaces control characters a banner
 * may have put in them, and none goes into a header.
 */
export function withChanges(mail: Mail, schedule: number, c: Comparison): Mail {
  if (c.first) {
    const head = wrap(
      `First run of schedule ${schedule}: there is no earlier run to compare with, so this mail is sent whatever it found.`,
      LINE,
    );
    return {
      ...mail,
      subject: `${mail.subject} [schedule ${schedule}, first run]`,
      text: [...head, '', mail.text].join('\n'),
    };
  }
  const added = c.changes.filter((x) => x.kind === 'new').length;
  const gone = c.changes.length - added;
  const counted = `${added} new, ${gone} resolved`;
  const lines = c.changes
    .slice(0, CHANGES_SHOWN)
    .flatMap((x) =>
      wrap(
        `${x.kind === 'new' ? 'NEW     ' : 'RESOLVED'} [${RISK_LABEL[x.risk]}] ${x.ip} port ${x.port}: ${x.title}`,
        LINE - 11,
      ).map((l, i) => (i === 0 ? `  ${l}` : `           ${l}`)),
    );
  const more = c.changes.length > CHANGES_SHOWN ? [`  ... and ${c.changes.length - CHANGES_SHOWN} more.`] : [];
  const head = [
    ...wrap(`What changed since the previous run of schedule ${schedule} (audit ${c.previous}): ${counted}.`, LINE),
    ...lines,
    ...more,
  ];
  return { ...mail, subject: `${mail.subject} [${counted}]`, text: [...head, '', mail.text].join('\n') };
}
