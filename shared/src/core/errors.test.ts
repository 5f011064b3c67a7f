import { ERROR_MESSAGES, FALLBACK_DETAIL, resetPasswordFailure, toastForError } from './errors';

describe('toastForError', () => {
  it('titles by status and details with the mapped message', () => {
    expect(toastForError({ status: 400, body: { code: 'failed_login', message: 'x', requestId: 'r1' } })).toEqual({
      severity: 'error',
      summary: 'Unable to complete request',
      detail: ERROR_MESSAGES.failed_login,
    });
    expect(toastForError({ status: 403, body: { code: 'client_lead_missing_in_project' } })?.detail).toBe(
      'Client Lead Role must be set to activate the project.',
    );
  });

  it('falls back to the raw code, then the server message, then the reference text', () => {
    expect(toastForError({ status: 404, body: { code: 'some_new_code' } })).toMatchObject({
      summary: 'Not found error',
      detail: 'some_new_code',
    });
    expect(toastForError({ status: 415, body: { code: 'unsupported_media_type', message: 'Use JSON' } })).toMatchObject(
      {
        summary: 'Unsupported media type',
        detail: 'Use JSON',
      },
    );
    expect(toastForError({ status: 500, body: { requestId: 'req-9' } })).toMatchObject({
      summary: 'Something went wrong',
      detail: `${FALLBACK_DETAIL}. Reference: req-9`,
    });
    expect(toastForError({ status: 503 })?.detail).toBe(FALLBACK_DETAIL);
    // a business rule's refusal is no crash: titled like a 400
    expect(toastForError({ status: 409, body: { code: 'project_with_tasks_cannot_be_canceled' } })).toEqual({
      severity: 'error',
      summary: 'Unable to complete request',
      detail: ERROR_MESSAGES.project_with_tasks_cannot_be_canceled,
    });
  });

  it('is silent for 401, 502 and cancelled requests, and warns on 429', () => {
    expect(toastForError({ status: 401 })).toBeNull();
    expect(toastForError({ status: 502 })).toBeNull();
    expect(toastForError({ status: 500, cancelled: true })).toBeNull();
    expect(toastForError({ status: 429 })).toEqual({
      severity: 'warn',
      summary: 'Too Many Requests',
      detail: 'Please wait a moment until you can send requests again.',
    });
  });

  it('names the brand in the reset failure', () => {
    expect(resetPasswordFailure('Acme')).toBe('Unable to Reset Password: Please contact your Acme Portal admin');
  });
});

describe('toastForError for a failed password reset', () => {
  it('shows the reset failure with the brand, whatever the status', () => {
    expect(
      toastForError({
        status: 503,
        body: { code: 'reset_password_failed', message: 'x', requestId: 'r' },
        brand: 'Acme',
      }),
    ).toEqual({
      severity: 'error',
      summary: 'Unable to Reset Password',
      detail: 'Please contact your Acme Portal admin',
    });
    expect(toastForError({ status: 500, body: { code: 'reset_password_failed' } })?.detail).toBe(
      'Please contact your Tevora Portal admin',
    );
  });

  it('maps the password codes to their catalogue text', () => {
    expect(toastForError({ status: 400, body: { code: 'current_password_incorrect' } })?.detail).toBe(
      'The current password is not correct.',
    );
    expect(toastForError({ status: 400, body: { code: 'federated_user' } })?.detail).toMatch(/single sign-on/);
  });
});

describe('toastForError special cases of the task tracker', () => {
  it("shows a malformed task tracker file's server message, else the catalogue text", () => {
    expect(
      toastForError({
        status: 400,
        body: { code: 'malformed_task_tracker', message: 'Row 4: the Task ID column is missing' },
      }),
    ).toEqual({
      severity: 'error',
      summary: 'Unable to complete request',
      detail: 'Row 4: the Task ID column is missing',
    });
    expect(toastForError({ status: 400, body: { code: 'malformed_task_tracker', message: '' } })?.detail).toBe(
      'Malformed Task Tracker File',
    );
  });

  it('tells that task IDs must be unique for a duplicate task reference', () => {
    expect(toastForError({ status: 400, body: { code: 'task_reference_id_already_exist_on_project' } })?.detail).toBe(
      'Task IDs must be unique or null',
    );
  });
});
