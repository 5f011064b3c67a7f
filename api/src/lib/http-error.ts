import { ZodError, type z } from 'zod';
import { ERROR_MESSAGES, isMappedErrorCode, type ErrorCode } from '@portal/shared/core/errors';

export interface ErrorDetail {
  field: string;
  message: string;
}

const DEFAULT_MESSAGES: Partial<Record<string, string>> = {
  bad_request: 'The request is not valid.',
  validation_failed: 'The request has invalid values.',
  unauthorized: 'You need to sign in.',
  forbidden: 'You do not have permission to do this.',
  module_access_denied: 'This module is not enabled for you in this company.',
  not_found: 'Not found.',
  unsupported_media_type: 'This content type is not supported.',
  payload_too_large: 'The request body is too large.',
  too_many_requests: 'Too many requests.',
  internal_error: 'Internal server error',
  service_unavailable: 'The service is unavailable.',
  csrf_rejected: 'The request was rejected: it did not come from the portal.',
};

export function defaultMessage(code: string): string {
  return isMappedErrorCode(code) ? ERROR_MESSAGES[code] : (DEFAULT_MESSAGES[code] ?? code);
}

/** What routes throw: the error handler turns it into `{ code, message, requestId, details? }`. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode | (string & {});
  readonly details?: ErrorDetail[];
  /** Sent as Retry-After (a 429). */
  retryAfterSeconds?: number;

  constructor(statusCode: number, code: ErrorCode | (string & {}), message?: string, details?: ErrorDetail[]) {
    super(message ?? defaultMessage(code));
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
  }
}

export function zodDetails(error: ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
}

/** 400 validation_failed naming the fields, e.g. `Invalid query parameter: pageSize`. */
export function validationError(error: ZodError, where: 'query parameter' | 'field' | 'path parameter'): HttpError {
  const details = zodDetails(error);
  const names = [...new Set(details.map((d) => d.field))].join(', ');
  return new HttpError(400, 'validation_failed', `Invalid ${where}${details.length > 1 ? 's' : ''}: ${names}`, details);
}

/** zod reports unknown fields on the object itself; name each one instead, so the web can point at it. */
export function nameUnknownFields(error: ZodError): ZodError {
  return new ZodError(
    error.issues.flatMap((issue): z.core.$ZodIssue[] =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({
            ...issue,
            keys: [key],
            path: [...issue.path, key],
            message: `${key} is not a known field`,
          }))
        : [issue],
    ),
  );
}
