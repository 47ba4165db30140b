import type { Check } from '../types.ts';
import { HTTP_CHECKS } from './http.ts';
import { NSE_CHECKS } from './nse.ts';
import { REMOTE_CHECKS } from './remote.ts';
import { SERVICE_CHECKS } from './services.ts';
import { TLS_CHECKS } from './tls.ts';
import { VERSION_CHECKS } from './version.ts';
import { AUTH_SQL_CHECKS } from './auth-sql.ts';
import { AUTH_OPEN_CHECKS } from './auth-open.ts';
import { DOS_CHECKS } from './dos.ts';
import { SMB_CHECKS } from './smb.ts';
import { WRITE_CHECKS } from './writes.ts';
import { SMTP_CHECKS } from './smtp-enum.ts';

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
  ...AUTH_SQL_CHECKS,
  ...AUTH_OPEN_CHECKS,
  ...DOS_CHECKS,
  ...SMB_CHECKS,
  ...WRITE_CHECKS,
  ...SMTP_CHECKS,
]);
