import type { Check } from '../types.ts';
import { HTTP_CHECKS } from './http.ts';
import { NSE_CHECKS } from './nse.ts';
import { REMOTE_CHECKS } from './remote.ts';
import { SERVICE_CHECKS } from './services.ts';
import { TLS_CHECKS } from './tls.ts';
import { VERSION_CHECKS } from './version.ts';
import { WEB_CONTENT_CHECKS } from './web-content.ts';
import { HTTP_POLICY_CHECKS } from './http-policy.ts';
import { HTTP_WRITE_CHECKS } from './http-write.ts';
import { CLEARTEXT_CHECKS } from './cleartext.ts';
import { AUTH_SQL_CHECKS } from './auth-sql.ts';
import { AUTH_OPEN_CHECKS } from './auth-open.ts';
import { SMB_CHECKS } from './smb.ts';
import { DOS_CHECKS } from './dos.ts';
import { WRITE_CHECKS } from './writes.ts';
import { SMTP_CHECKS } from './smtp-enum.ts';
import { DNS_CHECKS } from './dns-axfr.ts';
import { SSH_AUTH_CHECKS } from './ssh-auth.ts';
import { TFTP_CHECKS } from './tftp.ts';

/**
 * THE catalogue of checks: one file per family, each exporting an array.
 * Ids are stable forever (reports and baselines refer to them).
 */
export const CHECKS: readonly Check[] = Object.freeze([
  ...VERSION_CHECKS,
  ...TLS_CHECKS,
  ...HTTP_CHECKS,
  ...SERVICE_CHECKS,
  ...REMOTE_CHECKS,
  ...NSE_CHECKS,
  ...WEB_CONTENT_CHECKS,
  ...HTTP_POLICY_CHECKS,
  ...HTTP_WRITE_CHECKS,
  ...CLEARTEXT_CHECKS,
  ...AUTH_SQL_CHECKS,
  ...AUTH_OPEN_CHECKS,
  ...SMB_CHECKS,
  ...DOS_CHECKS,
  ...WRITE_CHECKS,
  ...SMTP_CHECKS,
  ...DNS_CHECKS,
  ...SSH_AUTH_CHECKS,
  ...TFTP_CHECKS,
]);
