/** Test support: reaching a row's action through its "⋯" menu, as a user does. */
import { fireEvent, within } from '@testing-library/react';

type View = ReturnType<typeof within>;

/** Opens the row menu named `menu` and returns its item named `item` (not yet chosen). */
export async function rowMenuItem(view: View, menu: string, item: string | RegExp): Promise<HTMLElement> {
  fireEvent.click(await view.findByRole('button', { name: menu }));
  return view.getByRole('menuitem', { name: item });
}

/** Opens the row menu named `menu` and chooses `item`. */
export async function chooseRowAction(view: View, menu: string, item: string | RegExp): Promise<void> {
  fireEvent.click(await rowMenuItem(view, menu, item));
}

/** The item names of the row menu named `menu` (opened, then closed again with Escape). */
export async function rowMenuItems(view: View, menu: string): Promise<string[]> {
  const button = await view.findByRole('button', { name: menu });
  fireEvent.click(button);
  const names = view.getAllByRole('menuitem').map((item: HTMLElement) => item.textContent ?? '');
  fireEvent.keyDown(view.getByRole('menu'), { key: 'Escape' });
  return names;
}
