import type { MouseEvent, ReactNode } from 'react';
import { useLoginBox } from '../context';

/** A real link (works with middle-click, copy) that navigates within the host page on click. */
export function RouteLink({ to, children }: { to: string; children: ReactNode }) {
  const { navigate } = useLoginBox();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} className="gh-link">
      {children}
    </a>
  );
}
