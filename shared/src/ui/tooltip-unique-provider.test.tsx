import { render, screen } from '@testing-library/react';
import TooltipUniqueProvider from './tooltip-unique-provider';

describe('TooltipUniqueProvider (what ConfigProvider renders for tooltip={{ unique: true }})', () => {
  it('renders its content once antd’s provider has loaded, and nothing of it before', async () => {
    const { container } = render(
      <TooltipUniqueProvider>
        <button type="button">Export</button>
      </TooltipUniqueProvider>,
    );
    // nothing below it renders without the provider, so no tooltip can open without it
    expect(container).toBeEmptyDOMElement();
    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
  });
});
