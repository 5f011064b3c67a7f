import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Spin } from './spin';

describe('Spin', () => {
  it('named, is a status that assistive technology announces, busy, in the size asked for', () => {
    render(
      <>
        <Spin aria-label="Loading teams" />
        <Spin size="large" />
      </>,
    );
    const status = screen.getByRole('status', { name: 'Loading teams' });
    expect(status).toHaveAttribute('aria-busy', 'true');
    expect(status).toHaveClass('portal-spin-spinning');
    // antd's sizes: 20 px by default, 32 px large (controlHeight)
    expect(status.style.getPropertyValue('--ps-size')).toBe('20px');
    const large = document.querySelectorAll('.portal-spin')[1] as HTMLElement;
    expect(large.style.getPropertyValue('--ps-size')).toBe('32px');
    expect(large).not.toHaveAttribute('role');
  });

  it('not spinning, shows nothing on its own', () => {
    const { container } = render(<Spin spinning={false} aria-label="Loading notifications" />);
    expect(container).toBeEmptyDOMElement();
  });

  it('over content: dims it and keeps it from the pointer while spinning, and gives it back after', async () => {
    const onClick = jest.fn();
    const { rerender } = render(
      <Spin spinning>
        <button onClick={onClick}>Export</button>
      </Spin>,
    );
    const content = screen.getByRole('button', { name: 'Export' }).parentElement!;
    expect(content).toHaveStyle({ opacity: '0.5', pointerEvents: 'none' });
    expect(content.parentElement).toHaveAttribute('aria-busy', 'true');
    expect(document.querySelector('.portal-spin-spinning')).not.toBeNull();

    rerender(
      <Spin spinning={false}>
        <button onClick={onClick}>Export</button>
      </Spin>,
    );
    expect(document.querySelector('.portal-spin-spinning')).toBeNull();
    expect(screen.getByRole('button', { name: 'Export' }).parentElement).not.toHaveStyle({ opacity: '0.5' });
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
