import { ApiError, type ErrorCode } from '../errors.ts';

/** The spec's reply shapes: status "0" plus fields, or status "-1" and a code. */
export const success = (fields: Record<string, unknown>) => ({ status: '0', ...fields });
export const failure = (code: ErrorCode) => ({ status: '-1', error: code });

export function codeOf(err: unknown): ErrorCode | null {
  return err instanceof ApiError ? err.code : null;
}
