import { render } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { useInertWhile } from './use-inert';

function Behind({ open }: { open: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useInertWhile(ref, open);
  return <div ref={ref} data-testid="behind" />;
}

describe('useInertWhile', () => {
  it('makes the content behind inert while a dialog is open, and live again after', () => {
    const { getByTestId, rerender } = render(<Behind open={false} />);
    expect(getByTestId('behind').hasAttribute('inert')).toBe(false);
    rerender(<Behind open />);
    expect(getByTestId('behind').hasAttribute('inert')).toBe(true);
    rerender(<Behind open={false} />);
    expect(getByTestId('behind').hasAttribute('inert')).toBe(false);
  });
});
