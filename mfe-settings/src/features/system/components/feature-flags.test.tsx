import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { FeatureFlagDefinition } from '@portal/shared/core/feature-flags';
import { renderWithProviders } from '@portal/shared/testing';
import { button, findDialog, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { SystemPage } from './system-page';

const flag = (key: string, extra: Partial<FeatureFlagDefinition> = {}): FeatureFlagDefinition => ({
  key,
  description: '',
  defaultValue: false,
  rules: [],
  enabled: true,
  version: 1,
  updatedAt: '2026-05-06T09:30:00',
  ...extra,
});
const staffRule = {
  if: { attribute: 'isTevora' as const, op: 'eq' as const, value: true },
  value: true,
  variant: 'staff',
};

const sent: unknown[] = [];
setupTestServer(
  http.get('*/api/v1/feature-flags/definitions', () =>
    HttpResponse.json({
      results: [
        flag('staff-preview', { description: 'Preview for staff', rules: [staffRule] }),
        flag('help-url', { defaultValue: 'https://help.example', description: 'Where Help leads' }),
      ],
    }),
  ),
  http.put('*/api/v1/feature-flags/:key', async ({ request, params }) => {
    const body = (await request.json()) as { description?: string };
    sent.push({ [`PUT ${String(params.key)}`]: body });
    // a refusal the form cannot foresee: the api names its fields, the dialog its labels
    if (body.description === 'Refused') {
      return HttpResponse.json(
        {
          code: 'validation_failed',
          message: 'The flag is not valid.',
          requestId: 'r',
          details: [
            { field: 'description', message: 'description must not repeat the key' },
            { field: 'rules.0.value', message: 'rules.0.value must be a boolean, like the default' },
          ],
        },
        { status: 400 },
      );
    }
    return HttpResponse.json(flag(String(params.key)));
  }),
  http.delete('*/api/v1/feature-flags/:key', ({ params }) => {
    sent.push(`DELETE ${String(params.key)}`);
    return new HttpResponse(null, { status: 204 });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
});
afterEach(() => {
  sent.length = 0;
});

const renderFlags = () =>
  renderWithProviders(<SystemPage />, {
    route: '/settings/system?tab=flags',
    session: sessionFor({ isTevora: true, isStaffAdmin: true }),
  });

describe('feature flags', () => {
  it('lists the definitions', async () => {
    renderFlags();
    const row = (await screen.findByText('staff-preview')).closest('tr')!;
    expect(within(row).getByText('Preview for staff')).toBeInTheDocument();
    expect(within(row).getByText('false')).toBeInTheDocument();
    expect(within(row).getByText('Enabled')).toBeInTheDocument();
    expect(within(screen.getByText('help-url').closest('tr')!).getByText('"https://help.example"')).toBeInTheDocument();
  });

  it('edits a boolean default, enabled and description, keeping the rules', async () => {
    renderFlags();
    await ue.click(await screen.findByLabelText('Edit staff-preview'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('1 targeting rule kept as they are.')).toBeInTheDocument();
    await ue.click(within(dialog).getByLabelText('Default value'));
    await ue.click(within(dialog).getByLabelText('Enabled'));
    await ue.clear(within(dialog).getByLabelText('Description'));
    await ue.type(within(dialog).getByLabelText('Description'), 'Staff preview');
    await ue.click(button('Save flag', dialog));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          'PUT staff-preview': { description: 'Staff preview', defaultValue: true, rules: [staffRule], enabled: false },
        },
      ]),
    );
  });

  it('validates a JSON default before sending it', async () => {
    renderFlags();
    await ue.click(await screen.findByLabelText('Edit help-url'));
    const dialog = await findDialog();
    const json = within(dialog).getByLabelText('Default value (JSON)');
    expect(json).toHaveValue('"https://help.example"');
    fireEvent.change(json, { target: { value: '{"url": ' } });
    await ue.click(button('Save flag', dialog));
    expect(await within(dialog).findByText(/^Must be valid JSON/)).toBeInTheDocument();
    fireEvent.change(json, { target: { value: 'null' } });
    await ue.click(button('Save flag', dialog));
    expect(
      await within(dialog).findByText('Must be a boolean, number, string, object or array, not null'),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);
    fireEvent.change(json, { target: { value: '{"url": "https://docs.example"}' } });
    await ue.click(button('Save flag', dialog));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          'PUT help-url': {
            description: 'Where Help leads',
            defaultValue: { url: 'https://docs.example' },
            rules: [],
            enabled: true,
          },
        },
      ]),
    );
  });

  it('says a refusal of the api in the form’s words, never the api’s field names', async () => {
    renderFlags();
    await ue.click(await screen.findByLabelText('Edit staff-preview'));
    const dialog = await findDialog();
    const description = within(dialog).getByLabelText('Description');
    await ue.clear(description);
    await ue.type(description, 'Refused');
    await ue.click(button('Save flag', dialog));
    expect(await within(dialog).findByText('Must not repeat the key')).toBeInTheDocument();
    expect(await within(dialog).findByText('Rules: Must be a boolean, like the default')).toBeInTheDocument();
    expect(within(dialog).queryByText(/rules\.0|description must/)).toBeNull();
  });

  it('creates a flag with a valid, new key', async () => {
    renderFlags();
    await screen.findByText('staff-preview');
    await ue.click(button('New flag'));
    const dialog = await findDialog();
    const key = within(dialog).getByLabelText('Key');
    await ue.type(key, 'Bad Key');
    await ue.click(button('Save flag', dialog));
    expect(await within(dialog).findByText(/must start with a lowercase letter/)).toBeInTheDocument();
    await ue.clear(key);
    await ue.type(key, 'help-url');
    expect(await within(dialog).findByText('a flag with this key already exists')).toBeInTheDocument();
    await ue.clear(key);
    await ue.type(key, 'new-reports');
    await ue.click(within(dialog).getByLabelText('Other (JSON)'));
    fireEvent.change(await within(dialog).findByLabelText('Default value (JSON)'), { target: { value: '42' } });
    await ue.click(button('Save flag', dialog));
    await waitFor(() =>
      expect(sent).toEqual([{ 'PUT new-reports': { description: '', defaultValue: 42, rules: [], enabled: true } }]),
    );
  });

  it('deletes a flag after confirmation', async () => {
    renderFlags();
    await ue.click(await screen.findByLabelText('Delete help-url'));
    expect(sent).toEqual([]);
    await ue.click(button('Delete flag', await findDialog()));
    await waitFor(() => expect(sent).toEqual(['DELETE help-url']));
  });
});
