import { type ReactNode, useRef } from 'react';
import { useFocusOnMount } from './useFocusOnMount';

interface ScreenProps {
  title: string;
  /** Focus the heading when the screen appears (leave false when a field takes the focus instead). */
  focusHeading?: boolean;
  children: ReactNode;
}

/** One screen of the app: a card with its heading. */
export function Screen({ title, focusHeading = true, children }: ScreenProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(focusHeading ? heading : noFocus);
  return (
    <section className="card" aria-labelledby="screen-title">
      <h1 id="screen-title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </section>
  );
}

const noFocus = { current: null };
