import { ERROR_MESSAGES, isMappedErrorCode, MALFORMED_TASK_TRACKER, MALFORMED_TASK_TRACKER_CODE } from '@portal/shared/core/errors';
import { UploadError } from '@portal/shared/web/upload';

/** Row problems shown at once in the import dialog; the rest are counted. */
export const SHOWN_PROBLEMS = 10;

/** Fields of the import form the api may name in `details`. */
const FORM_FIELDS = ['name', 'description'] as const;
export type ImportFormField = (typeof FORM_FIELDS)[number];

export interface ImportProblem {
  /** The headline: the catalogue's text for a known code, the server's message for a malformed file. */
  message: string;
  /** Row problems of the file (the api's `details`), at most SHOWN_PROBLEMS. */
  problems: string[];
  /** How many more the api reported. */
  more: number;
  /** Messages for the form's own fields (a name already taken, too long a description). */
  fields: { name: ImportFormField; errors: string[] }[];
  /** Everything wrong is on the form's fields: nothing about the file to say. */
  onlyFields: boolean;
}

/**
 * What the import dialog says about a failed import (SPEC.md section 8): a malformed file shows the
 * server's message (else "Malformed Task Tracker File"), a known code its catalogue text ("Task IDs must
 * be unique or null"), anything else the api's message; the file's row problems are listed beneath.
 */
export function importProblem(error: unknown): ImportProblem {
  if (!(error instanceof UploadError)) {
    return { message: 'The file could not be imported. Try again.', problems: [], more: 0, fields: [], onlyFields: false };
  }
  const onFields = error.details.filter((d) => (FORM_FIELDS as readonly string[]).includes(d.field));
  const rowDetails = error.details.filter((d) => !(FORM_FIELDS as readonly string[]).includes(d.field)).map((d) => d.message);
  const fields = FORM_FIELDS.map((name) => ({ name, errors: onFields.filter((d) => d.field === name).map((d) => d.message) })).filter((f) => f.errors.length);
  if (error.code === 'task_tracker_name_taken' && !fields.some((f) => f.name === 'name')) fields.push({ name: 'name', errors: [ERROR_MESSAGES.task_tracker_name_taken] });
  let message: string;
  if (error.code === MALFORMED_TASK_TRACKER_CODE) message = error.message || MALFORMED_TASK_TRACKER;
  else if (isMappedErrorCode(error.code)) message = ERROR_MESSAGES[error.code];
  else message = error.message;
  // A single problem that is the headline itself is not repeated beneath it.
  const problems = rowDetails.length === 1 && rowDetails[0] === message ? [] : rowDetails;
  const onlyFields = fields.length > 0 && rowDetails.length === 0;
  return { message, problems: problems.slice(0, SHOWN_PROBLEMS), more: Math.max(0, problems.length - SHOWN_PROBLEMS), fields, onlyFields };
}
