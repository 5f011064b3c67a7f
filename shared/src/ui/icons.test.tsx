import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BellOutlined, HomeOutlined, LockOutlined, ReloadOutlined } from './icons';

describe('first-page kit icons', () => {
  it('in antd’s markup: an image named by the icon, anticon classes, a 1em svg in the text colour hidden from assistive technology', () => {
    render(<HomeOutlined />);
    const icon = screen.getByRole('img', { name: 'home' });
    expect(icon.tagName).toBe('SPAN');
    expect(icon).toHaveClass('anticon', 'anticon-home');
    const svg = icon.querySelector('svg')!;
    expect(svg).toHaveAttribute('viewBox', '64 64 896 896');
    expect(svg).toHaveAttribute('focusable', 'false');
    expect(svg).toHaveAttribute('data-icon', 'home');
    expect(svg).toHaveAttribute('width', '1em');
    expect(svg).toHaveAttribute('fill', 'currentColor');
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg.querySelector('path')?.getAttribute('d')).toMatch(/^M946\.5 505L/);
  });

  it('takes a name, a class, a style and other attributes of its own', () => {
    render(
      <>
        <LockOutlined aria-label="Protected by a passphrase" className="extra" />
        <BellOutlined style={{ fontSize: 18 }} data-testid="bell" />
        <ReloadOutlined aria-hidden />
      </>,
    );
    const lock = screen.getByRole('img', { name: 'Protected by a passphrase' });
    expect(lock).toHaveClass('anticon', 'anticon-lock', 'extra');
    expect(screen.getByTestId('bell')).toHaveStyle({ fontSize: '18px' });
    expect(screen.queryByRole('img', { name: 'reload' })).toBeNull();
  });

  it('clickable: clicks reach the handler, and it takes focus from script but not from Tab', async () => {
    const onClick = jest.fn();
    render(<ReloadOutlined onClick={onClick} />);
    const icon = screen.getByRole('img', { name: 'reload' });
    expect(icon).toHaveAttribute('tabindex', '-1');
    await userEvent.click(icon);
    expect(onClick).toHaveBeenCalledTimes(1);
    render(<HomeOutlined />);
    expect(screen.getByRole('img', { name: 'home' })).not.toHaveAttribute('tabindex');
  });
});
