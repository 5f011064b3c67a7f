import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { Button } from '@portal/shared/ui/button';
import { Form, Input } from '@portal/shared/ui/extra';
import { schemaRule } from './errors';

// The api's schemas name their field ("Must be…") for callers of the api; a form shows
// the message under the field's own label, so without that name.
describe('schemaRule in a form', () => {
  it("shows the schema's message under the label without the api's name of the field", async () => {
    const minimumLength = z.string().min(8, 'Must be at least 8 characters');
    render(
      <Form>
        <Form.Item name="minimumLength" label="Minimum length" rules={[schemaRule(minimumLength)]}>
          <Input />
        </Form.Item>
        <Button htmlType="submit">Save</Button>
      </Form>,
    );
    await userEvent.type(screen.getByLabelText('Minimum length'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Must be at least 8 characters')).toBeInTheDocument();
    expect(screen.queryByText(/minimumLength/)).not.toBeInTheDocument();
  });

  it('keeps a message that does not start with the field name', async () => {
    const title = z.string().min(1, 'A title is needed');
    render(
      <Form initialValues={{ title: '' }}>
        <Form.Item name="title" label="Title" rules={[schemaRule(title)]}>
          <Input />
        </Form.Item>
        <Button htmlType="submit">Save</Button>
      </Form>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A title is needed')).toBeInTheDocument();
  });
});
