import { act, fireEvent, render, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RowMenu } from './row-menu';

afterEach(() => {
  document.body.innerHTML = '';
});

function renderMenu() {
  const edit = vi.fn();
  const remove = vi.fn();
  const { container } = render(
    <RowMenu
      label="Actions for Ada"
      items={[
        { key: 'edit', label: 'Edit roles', onSelect: edit },
        { key: 'lock', label: 'Lock', onSelect: vi.fn(), disabled: true },
        { key: 'remove', label: 'Remove', onSelect: remove, danger: true },
      ]}
    />,
  );
  return { view: within(container), edit, remove, button: within(container).getByRole('button', { name: 'Actions for Ada' }) };
}

describe('row menu (menu button pattern)', () => {
  it('opens with Down on the first item and with Up on the last; arrows wrap, Home and End jump', () => {
    const { view, button } = renderMenu();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    act(() => button.focus());
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const menu = view.getByRole('menu', { name: 'Actions for Ada' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement?.textContent).toBe('Edit roles');
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Remove');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Edit roles');
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('Remove');
    fireEvent.keyDown(menu, { key: 'Home' });
    expect(document.activeElement?.textContent).toBe('Edit roles');
    fireEvent.keyDown(menu, { key: 'l' });
    expect(document.activeElement?.textContent).toBe('Lock');
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(view.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    fireEvent.keyDown(button, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Remove');
  });

  it('chooses an item with a click, closing the menu; a disabled item does nothing', () => {
    const { view, button, edit } = renderMenu();
    fireEvent.click(button);
    fireEvent.click(view.getByRole('menuitem', { name: 'Lock' }));
    expect(view.getByRole('menu')).toBeTruthy();
    fireEvent.click(view.getByRole('menuitem', { name: 'Edit roles' }));
    expect(edit).toHaveBeenCalledTimes(1);
    expect(view.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('closes on a press outside', () => {
    const { view, button } = renderMenu();
    fireEvent.click(button);
    fireEvent.pointerDown(document.body);
    expect(view.queryByRole('menu')).toBeNull();
  });
});
