import type { MouseEvent, ReactNode } from 'react';
import { openScreen } from './navigate';

interface ScreenLinkProps {
  to: string;
  className?: string;
  children: ReactNode;
}

/**
 * A link to a screen of the app: opened in place as a history entry; a modified or middle click still opens
 * it in a new tab or window, as any link does.
 */
export function ScreenLink({ to, className, children }: ScreenLinkProps) {
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    openScreen(to);
  };
  return (
    <a href={to} className={className} onClick={open}>
      {children}
    </a>
  );
}
