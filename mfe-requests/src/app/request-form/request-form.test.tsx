import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderWithProviders } from '@portal/shared/testing';
import { dayjs, Form } from '@portal/shared/ui/extra';
import {
  ann,
  assigneeOptionsReply,
  bob,
  findOption,
  makeRequestDetail,
  setupTestServer,
  setupUser,
  staffSession,
} from '../../testing/fixtures';
import {
  DUE_DATE_MESSAGE,
  RequestFormFields,
  requestFormBody,
  requestFormValues,
  type RequestFormValues,
} from './request-form';

setupTestServer(http.get('*/api/v1/companies/c1/requests/assignees', () => HttpResponse.json(assigneeOptionsReply)));

describe('the request form', () => {
  it('sends only what was entered for a new request, assignees split into users and teams', () => {
    const values: RequestFormValues = {
      ...requestFormValues(),
      title: '  Firewall review ',
      description: '   ',
      dueDate: dayjs('2026-05-31'),
      projectId: 'p1',
      assignees: ['user:u2', 'team:tm1', 'user:u4'],
    };
    expect(requestFormBody(values)).toEqual({
      title: 'Firewall review',
      priority: 'medium',
      dueDate: '2026-05-31',
      projectId: 'p1',
      assigneeIds: ['u2', 'u4'],
      teamIds: ['tm1'],
    });
  });

  it('sends only the changes of an edit; a new project clears the task and control of the old one', () => {
    const before = makeRequestDetail({
      title: 'Firewall review',
      description: 'All rules',
      internalNote: 'ask Bob',
      priority: 'high',
      dueDate: '2026-05-31',
      project: { id: 'p1', title: 'SOC 2' },
      task: { id: 't1', referenceId: 'CC-1', title: 'Task' },
      assignees: [ann, bob],
      teams: [{ id: 'tm1', name: 'IT Ops' }],
    });
    const same = requestFormValues(before);
    expect(same.dueDate?.format('YYYY-MM-DD')).toBe('2026-05-31');
    expect(requestFormBody(same, before)).toEqual({});
    expect(requestFormBody({ ...same, assignees: ['team:tm1', 'user:u4', 'user:u2'] }, before)).toEqual({});
    expect(
      requestFormBody({ ...same, description: '', dueDate: null, projectId: 'p2', assignees: ['user:u2'] }, before),
    ).toEqual({
      description: null,
      dueDate: null,
      projectId: 'p2',
      taskId: null,
      assigneeIds: ['u2'],
      teamIds: [],
    });
  });

  it('offers people as "First Last (email)", teams as "Team: name", and keeps a current assignee no longer offered', async () => {
    const user = setupUser();
    const gone = { id: 'u9', firstName: 'Old', lastName: 'Member', email: 'old@acme.test', isTevora: false };
    const current = makeRequestDetail({ assignees: [gone] });
    function Harness() {
      const [form] = Form.useForm<RequestFormValues>();
      return (
        <Form form={form} layout="vertical" initialValues={requestFormValues(current)}>
          <RequestFormFields companyId="c1" current={current} />
        </Form>
      );
    }
    renderWithProviders(<Harness />, { session: staffSession });
    for (const label of ['Title', 'Description', 'Internal note', 'Priority', 'Due date', 'Project', 'Assignees'])
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByText('Staff only: never shown to the client')).toBeInTheDocument();
    const field = screen.getByLabelText('Assignees').closest('.ant-select') as HTMLElement;
    expect(within(field).getByText('Old Member (old@acme.test)')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Assignees'));
    expect(await findOption('Ann Lee (ann@acme.test)')).toBeInTheDocument();
    expect(await findOption('Team: IT Ops')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Project'));
    await waitFor(() =>
      expect(
        screen.getByText('SOC 2 Type II 2026', { selector: '.ant-select-item-option-content' }),
      ).toBeInTheDocument(),
    );
  });

  describe('the due date', () => {
    /** The form with a submit button; what it sends lands in `sent`. */
    function renderForm(initial = requestFormValues()) {
      const sent: unknown[] = [];
      function Harness() {
        const [form] = Form.useForm<RequestFormValues>();
        return (
          <Form form={form} layout="vertical" initialValues={initial} onFinish={(v) => sent.push(requestFormBody(v))}>
            <RequestFormFields companyId="c1" />
            <button type="submit">Create request</button>
          </Form>
        );
      }
      renderWithProviders(<Harness />, { session: staffSession });
      return { sent, due: screen.getByLabelText('Due date') as HTMLInputElement };
    }

    it("takes Enter as the picker's confirm, never as the form's submit, and shows the day as M/D/YYYY", async () => {
      const user = setupUser();
      const { sent, due } = renderForm({ ...requestFormValues(), title: 'Firewall review' });
      await user.click(due);
      await user.type(due, '2026-07-01{Enter}');
      await waitFor(() => expect(due).toHaveValue('7/1/2026'));
      expect(sent).toEqual([]);
      await user.type(due, '{Enter}');
      expect(sent).toEqual([]);
      await user.click(screen.getByText('Create request'));
      await waitFor(() =>
        expect(sent).toEqual([
          { title: 'Firewall review', priority: 'medium', dueDate: '2026-07-01', assigneeIds: [], teamIds: [] },
        ]),
      );
    });

    it('takes a typed M/D/YYYY day when the field is left', async () => {
      const user = setupUser();
      const { sent, due } = renderForm({ ...requestFormValues(), title: 'Firewall review' });
      await user.click(due);
      await user.type(due, '12/24/2026');
      await user.click(screen.getByText('Create request'));
      await waitFor(() => expect(sent).toEqual([expect.objectContaining({ dueDate: '2026-12-24' })]));
      expect(due).toHaveValue('12/24/2026');
    });

    it('says so when the typed text names no day, on Enter or on submit, instead of dropping it', async () => {
      const user = setupUser();
      const { sent, due } = renderForm({ ...requestFormValues(), title: 'Firewall review' });
      await user.click(due);
      await user.type(due, '7/1{Enter}');
      expect(await screen.findByText(DUE_DATE_MESSAGE)).toBeInTheDocument();
      expect(due).toHaveValue('7/1');
      await user.click(screen.getByText('Create request'));
      await waitFor(() => expect(screen.getByText(DUE_DATE_MESSAGE)).toBeInTheDocument());
      expect(sent).toEqual([]);

      // completing the day clears the problem and the request goes with it
      await user.type(due, '/2026');
      await user.click(screen.getByText('Create request'));
      await waitFor(() => expect(sent).toEqual([expect.objectContaining({ dueDate: '2026-07-01' })]));
      await waitFor(() => expect(screen.queryByText(DUE_DATE_MESSAGE)).not.toBeInTheDocument());
    });

    it("refuses a half-typed change of an edited request's day rather than keeping the old day, and clears the day when emptied", async () => {
      const user = setupUser();
      const before = makeRequestDetail({ dueDate: '2026-05-31' });
      const { sent, due } = renderForm(requestFormValues(before));
      expect(due).toHaveValue('5/31/2026');
      await user.click(due);
      await user.clear(due);
      await user.type(due, '6/3');
      await user.click(screen.getByText('Create request'));
      expect(await screen.findByText(DUE_DATE_MESSAGE)).toBeInTheDocument();
      expect(due).toHaveValue('6/3');
      expect(sent).toEqual([]);

      await user.clear(due);
      fireEvent.blur(due);
      await user.click(screen.getByText('Create request'));
      await waitFor(() => expect(sent).toHaveLength(1));
      // a new request's body leaves an empty due date out (the old day would be there)
      expect(sent[0]).not.toHaveProperty('dueDate');
      expect(due).toHaveValue('');
    });
  });
});
