import { act, render, screen } from '@testing-library/react';
import { Form, Input } from '@portal/shared/ui/extra';
import type { FormInstance } from '@portal/shared/ui/extra';
import { fieldMessage, formErrors, publishErrorToast, showOnForm, type ErrorToast } from './errors';

/** A refused call as RTK Query hands it over. */
const refusal = (status: number, data: object) => ({ status, data: { requestId: 'r1', message: 'x', ...data } });

describe('formErrors', () => {
  it('words a field rule without the api name of the field in front', () => {
    const error = refusal(400, {
      code: 'validation_failed',
      details: [
        { field: 'minimumLength', message: 'minimumLength must be at least 8' },
        { field: 'assigneeIds.2', message: 'assigneeIds.2 is not a member of the company' },
      ],
    });
    expect(formErrors(error)).toEqual([
      { name: 'minimumLength', errors: ['Must be at least 8'] },
      { name: 'assigneeIds', errors: ['Is not a member of the company'] },
    ]);
    expect(fieldMessage('ssoUrl', 'Enter an https address')).toBe('Enter an https address');
  });

  it("shows a business rule's refusal in the catalogue's words, on its field", () => {
    const taken = refusal(409, {
      code: 'task_reference_id_already_exist_on_project',
      details: [{ field: 'referenceId', message: 'referenceId is already used by another task of this project' }],
    });
    expect(formErrors(taken)).toEqual([{ name: 'referenceId', errors: ['Task IDs must be unique or null'] }]);
    // a conflict without details goes to the field the caller names for it
    const bare = refusal(409, { code: 'project_already_exist' });
    expect(formErrors(bare, { project_already_exist: 'title' })).toEqual([
      { name: 'title', errors: ['A project with this title already exists.'] },
    ]);
    expect(formErrors(bare)).toEqual([]);
    expect(formErrors(new Error('network'))).toEqual([]);
  });
});

function NameForm({ onForm }: { onForm: (form: FormInstance) => void }) {
  const [form] = Form.useForm();
  onForm(form);
  return (
    <Form form={form}>
      <Form.Item name="name" label="Team name">
        <Input />
      </Form.Item>
    </Form>
  );
}

describe('showOnForm and the toast', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  async function renderForm(): Promise<FormInstance> {
    let form: FormInstance | null = null;
    render(<NameForm onForm={(f) => (form = f)} />);
    return form!;
  }

  it('puts the refusal beside its field and no toast is shown for it', async () => {
    const form = await renderForm();
    const error = refusal(409, {
      code: 'team_name_taken',
      details: [{ field: 'name', message: 'name is already used by another team' }],
    });
    const toasts: ErrorToast[] = [];
    publishErrorToast(error, { status: 409, body: error.data }, (t) => toasts.push(t));
    let shown = false;
    act(() => {
      shown = showOnForm(form, error);
    });
    expect(shown).toBe(true);
    act(() => jest.runAllTimers());
    expect(await screen.findByText('A team with this name already exists in this company.')).toBeInTheDocument();
    expect(toasts).toEqual([]);
  });

  it('leaves the toast to say what the form has no field for, titled as a refusal', async () => {
    const form = await renderForm();
    const error = refusal(409, {
      code: 'company_name_taken',
      details: [{ field: 'companyName', message: 'companyName is already used' }],
    });
    const toasts: ErrorToast[] = [];
    publishErrorToast(error, { status: 409, body: error.data }, (t) => toasts.push(t));
    let shown = true;
    act(() => {
      shown = showOnForm(form, error);
    });
    act(() => jest.runAllTimers());
    expect(shown).toBe(false);
    expect(toasts).toEqual([
      { severity: 'error', summary: 'Unable to complete request', detail: 'A company with this name already exists.' },
    ]);
  });
});
