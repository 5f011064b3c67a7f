import { Alert } from '@portal/shared/ui/extra';
import { apiErrorMessage } from '../../files/model/errors';

export interface Failure {
  message: string;
  details: string[];
}

/**
 * A refused call as a dialog shows it: the catalogue's text for its code (else the api's message) and
 * the api's details (the caller puts them in the form's words first: interview-form-modal's inFormWords).
 */
export function failureOf(error: unknown, fallback: string): Failure {
  const data = (error as { data?: { details?: { message?: unknown }[] } } | undefined)?.data;
  const details = (data?.details ?? []).map((d) => d.message).filter((m): m is string => typeof m === 'string');
  return { message: apiErrorMessage(error, fallback), details: [...new Set(details)] };
}

/** A refusal at the top of a dialog (role="alert", so it is read out). */
export function FailureAlert({ failure }: { failure: Failure | null }) {
  if (!failure) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      title={failure.message}
      description={
        failure.details.length ? (
          <ul style={{ margin: 0, paddingInlineStart: 20 }}>
            {failure.details.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        ) : undefined
      }
    />
  );
}
