import { screen, waitFor, within } from '@testing-library/react';
import { address, button, findDialog, findOption, setupUser } from '../../../testing/fixtures';
import { renderListAt, setupListApi } from '../testing/list-api';

const { api } = setupListApi();

describe('bulk changes', () => {
  it('assigns the selected requests, then clears the selection and reads the list again', async () => {
    const user = setupUser();
    renderListAt('/requests');
    await screen.findByText('Firewall review', { selector: 'a' });
    await user.click(screen.getByLabelText('Select REQ-0001'));
    await user.click(screen.getByLabelText('Select REQ-0002'));
    const bar = screen.getByLabelText('Bulk actions');
    expect(within(bar).getByText('2 selected')).toBeInTheDocument();

    await user.click(button('Assign', bar));
    const dialog = await findDialog();
    // adding no one is refused before anything is sent
    await user.click(button('Apply', dialog));
    expect(await within(dialog).findByText('Choose at least one person or team to add.')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Assignees'));
    await user.click(await findOption('Team: IT Ops'));
    await user.click(within(dialog).getByLabelText('Replace their assignees'));
    const calls = api.listCalls.length;
    await user.click(button('Apply', dialog));
    await waitFor(() =>
      expect(api.bulkCalls).toEqual([
        { action: 'assign', requestIds: ['r1', 'r2'], mode: 'replace', assigneeIds: [], teamIds: ['tm1'] },
      ]),
    );
    await waitFor(() => expect(screen.queryByLabelText('Bulk actions')).not.toBeInTheDocument());
    expect(api.toasts).toContainEqual({ severity: 'success', summary: 'Assignees replaced on 2 requests' });
    await waitFor(() => expect(api.listCalls.length).toBe(calls + 1));
  });

  it('sets or clears the due date of the selection', async () => {
    const user = setupUser();
    renderListAt('/requests');
    await screen.findByText('Firewall review', { selector: 'a' });
    await user.click(screen.getByLabelText('Select REQ-0003'));
    await user.click(button('Set due date'));
    let dialog = await findDialog();
    await user.type(within(dialog).getByLabelText('Due date'), '2026-07-01{Enter}');
    await waitFor(() =>
      expect(api.bulkCalls).toEqual([{ action: 'dueDate', requestIds: ['r3'], dueDate: '2026-07-01' }]),
    );
    expect(api.toasts).toContainEqual({ severity: 'success', summary: 'Due date set on 1 request' });

    await user.click(screen.getByLabelText('Select REQ-0003'));
    await user.click(button('Set due date'));
    dialog = await findDialog();
    await user.click(within(dialog).getByLabelText('Clear due date'));
    await user.click(button('Apply', dialog));
    await waitFor(() => expect(api.bulkCalls[1]).toEqual({ action: 'dueDate', requestIds: ['r3'], dueDate: null }));
  });

  it('says what a status change does, and keeps a refusal naming the requests in the dialog', async () => {
    const user = setupUser();
    renderListAt('/requests');
    await screen.findByText('Firewall review', { selector: 'a' });
    await user.click(screen.getByLabelText('Select REQ-0001'));
    await user.click(button('Change status'));
    const dialog = await findDialog();
    await user.click(within(dialog).getByLabelText('Accept'));
    expect(within(dialog).getByText(/Accept the evidence of 1 request: they close as accepted/)).toBeInTheDocument();
    await user.click(button('Apply', dialog));
    expect(await within(dialog).findByText('REQ-0001 is open: it cannot be accepted')).toBeInTheDocument();
    expect(within(dialog).getByText('This status change is not allowed.')).toBeInTheDocument();
    expect(screen.getByLabelText('Bulk actions')).toBeInTheDocument();

    await user.click(within(dialog).getByLabelText('Cancel'));
    expect(within(dialog).getByText(/Cancel 1 request: no one is asked for evidence any more/)).toBeInTheDocument();
    await user.click(button('Apply', dialog));
    await waitFor(() =>
      expect(api.bulkCalls[1]).toEqual({ action: 'status', requestIds: ['r1'], transition: 'cancel' }),
    );
    expect(api.toasts).toContainEqual({ severity: 'success', summary: '1 request canceled' });
  });

  it('starts the selection over when the filters change', async () => {
    const user = setupUser();
    renderListAt('/requests');
    await screen.findByText('Firewall review', { selector: 'a' });
    await user.click(screen.getByLabelText('Select REQ-0001'));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Overdue only'));
    await waitFor(() => expect(screen.queryByText('1 selected')).not.toBeInTheDocument());
  });
});

describe('a new request', () => {
  it('is created from the dialog, opens, and is announced; a refused field shows under it', async () => {
    const user = setupUser();
    renderListAt('/requests');
    await screen.findByText('Firewall review', { selector: 'a' });
    await user.click(button('New request'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('New request')).toBeInTheDocument();
    await user.click(button('Create request', dialog));
    expect(await within(dialog).findByText('Is required')).toBeInTheDocument();
    expect(api.createCalls).toEqual([]);

    await user.type(within(dialog).getByLabelText('Title'), 'Taken');
    await user.click(within(dialog).getByLabelText('Assignees'));
    await user.click(await findOption('Ann Lee (ann@acme.test)'));
    await user.click(button('Create request', dialog));
    expect(await within(dialog).findByText('Must name active members of the company')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Title'));
    await user.type(within(dialog).getByLabelText('Title'), 'Firewall rules');
    // Enter confirms the day typed (shown as M/D/YYYY); it does not create the request
    await user.type(within(dialog).getByLabelText('Due date'), '2026-06-30{Enter}');
    await waitFor(() => expect(within(dialog).getByLabelText('Due date')).toHaveValue('6/30/2026'));
    expect(api.createCalls).toHaveLength(1);
    await user.click(button('Create request', dialog));
    await waitFor(() => expect(address()).toBe('/requests/r42'));
    expect(api.createCalls[1]).toEqual({
      title: 'Firewall rules',
      priority: 'medium',
      dueDate: '2026-06-30',
      assigneeIds: ['u2'],
      teamIds: [],
    });
    expect(api.toasts).toContainEqual({ severity: 'success', summary: 'Request REQ-0042 created' });
  });
});
