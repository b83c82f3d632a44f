import { createContext, type ReactNode, useContext } from 'react';

/** True inside a part of the wallet home shown as a screen of its own (`PanelScreen`). */
export const PanelIsScreenContext = createContext(false);

/**
 * A home panel's heading (an `h2`). On the panel's own screen (`/receive`, `/activity`, …) the screen's `h1`
 * already says it: the heading is then `hidden` (not shown, not a second heading to screen readers) and only
 * still names its region through `aria-labelledby`.
 */
export function PanelHeading({ id, children }: { id: string; children: ReactNode }) {
  const isScreen = useContext(PanelIsScreenContext);
  return (
    <h2 id={id} hidden={isScreen}>
      {children}
    </h2>
  );
}
