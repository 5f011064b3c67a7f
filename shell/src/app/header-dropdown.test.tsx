import { useState } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@portal/shared/ui/button';
import * as realKit from '@portal/shared/ui/menus';
import { moduleLoader } from '@portal/shared/web/deferred';
import { headerDropdown, type MenusKit } from './header-dropdown';
import { markFirstContentShown } from './first-content';

/** A menu kit loader whose load the test lets through (or fails) when it wants. */
function heldKit() {
  let release!: () => void;
  let fail!: (e: Error) => void;
  let calls = 0;
  const loader = moduleLoader<MenusKit>(() => {
    calls += 1;
    return new Promise<MenusKit>((resolve, reject) => {
      release = () => resolve(realKit);
      fail = reject;
    });
  });
  return {
    loader,
    release: () => act(async () => release()),
    fail: (e: Error) => act(async () => fail(e)),
    calls: () => calls,
  };
}

const items = [
  { key: 'settings', label: 'Personal settings' },
  { key: 'logout', label: 'Sign out' },
];

describe('HeaderDropdown', () => {
  it('shows its trigger before the menu code is there; a click loads it and opens the menu with focus inside', async () => {
    const kit = heldKit();
    const Menu = headerDropdown(kit.loader, 0);
    const onClick = jest.fn();
    render(
      <Menu menu={{ items, onClick: ({ key }) => onClick(key) }} trigger={['click']}>
        <Button>User menu</Button>
      </Menu>,
    );
    const trigger = screen.getByRole('button', { name: 'User menu' });
    await userEvent.click(trigger);
    expect(kit.calls()).toBe(1);
    expect(screen.queryByRole('menuitem', { name: 'Sign out' })).not.toBeInTheDocument();

    await kit.release();
    const signOut = await screen.findByRole('menuitem', { name: 'Sign out' });
    await waitFor(() => expect(screen.getByRole('menu')).toContainElement(document.activeElement as HTMLElement));
    await userEvent.click(signOut);
    expect(onClick).toHaveBeenCalledWith('logout');
  });

  it('loads the menu code once the first content is shown (here without the settle delay), and the focused trigger keeps its focus', async () => {
    const kit = heldKit();
    const Menu = headerDropdown(kit.loader, 0);
    render(
      <Menu menu={{ items }} trigger={['click']}>
        <Button>User menu</Button>
      </Menu>,
    );
    expect(kit.calls()).toBe(0);
    act(() => screen.getByRole('button', { name: 'User menu' }).focus());
    // focusing the trigger starts the load early; the kit is adopted once the first content is shown
    expect(kit.calls()).toBe(1);
    await kit.release();
    await act(async () => markFirstContentShown());
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'User menu' }).closest('.ant-dropdown-trigger')).not.toBeNull(),
    );
    expect(screen.getByRole('button', { name: 'User menu' })).toHaveFocus();

    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Personal settings' })).toBeInTheDocument();
  });

  it('a failed load leaves the trigger working: the next click loads again and opens the menu', async () => {
    const kit = heldKit();
    const Menu = headerDropdown(kit.loader, 0);
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(
        <Menu menu={{ items }} trigger={['click']}>
          <Button>User menu</Button>
        </Menu>,
      );
      await userEvent.click(screen.getByRole('button', { name: 'User menu' }));
      await kit.fail(new Error('offline'));
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('menu code did not load'), expect.any(Error));
      expect(screen.queryByRole('menu')).not.toBeInTheDocument();

      await userEvent.click(screen.getByRole('button', { name: 'User menu' }));
      expect(kit.calls()).toBe(2);
      await kit.release();
      expect(await screen.findByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
    } finally {
      errors.mockRestore();
    }
  });

  it('a controlled menu reports opening and closing to its owner', async () => {
    const kit = heldKit();
    const Menu = headerDropdown(kit.loader, 0);
    const changes: boolean[] = [];
    function Owner() {
      const [open, setOpen] = useState(false);
      return (
        <Menu
          open={open}
          onOpenChange={(next) => {
            changes.push(next);
            setOpen(next);
          }}
          menu={{ items }}
          trigger={['click']}
        >
          <Button>Notifications</Button>
        </Menu>
      );
    }
    render(<Owner />);
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    await kit.release();
    expect(await screen.findByRole('menuitem', { name: 'Personal settings' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Personal settings' }));
    await waitFor(() => expect(changes).toEqual([true, false]));
  });
});
