import { fireEvent, render, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilePicker } from './file-picker';

afterEach(() => {
  document.body.innerHTML = '';
});

function renderPicker(onFile = vi.fn(), disabled = false) {
  const { container } = render(
    <FilePicker id="logo" label="Logo" hint="PNG, up to 100 KB." accept="image/png" preview={<img alt="Current logo" src="data:image/png;base64,AA==" />} onFile={onFile} disabled={disabled} error={null} />,
  );
  return { view: within(container), container, onFile };
}

describe('file picker', () => {
  it('is a real, labelled file input described by its hint, beside the preview', () => {
    const { view } = renderPicker();
    const input = view.getByLabelText('Logo') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.accept).toBe('image/png');
    expect(input.getAttribute('aria-describedby')).toBe('logo-hint');
    expect(view.getByRole('img', { name: 'Current logo' })).toBeTruthy();
    expect(view.getByText('Choose a file')).toBeTruthy();
  });

  it('takes a dropped file, shows its name and offers another', () => {
    const { view, container, onFile } = renderPicker();
    const zone = container.querySelector<HTMLElement>('.gh-ap-dropzone')!;
    const file = new File(['x'], 'brand.png', { type: 'image/png' });
    fireEvent.dragOver(zone, { dataTransfer: { files: [file], dropEffect: 'none' } });
    expect(zone.getAttribute('data-dragging')).toBe('true');
    fireEvent.drop(zone, { dataTransfer: { files: [file] } });
    expect(onFile).toHaveBeenCalledWith(file);
    expect(zone.getAttribute('data-dragging')).toBeNull();
    expect(view.getByText('Chosen: brand.png')).toBeTruthy();
    expect(view.getByText('Choose another file')).toBeTruthy();
  });

  it('ignores drops while disabled', () => {
    const { container, onFile } = renderPicker(vi.fn(), true);
    fireEvent.drop(container.querySelector('.gh-ap-dropzone')!, { dataTransfer: { files: [new File(['x'], 'a.png', { type: 'image/png' })] } });
    expect(onFile).not.toHaveBeenCalled();
  });
});
