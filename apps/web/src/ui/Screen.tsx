import { type ReactNode, useEffect, useRef } from 'react';
import { useFocusOnMount } from './useFocusOnMount';

interface ScreenProps {
  title: string;
  /** The tab's title when it is not the heading (a step of the screen, a shorter name); "Dial" is added. */
  pageTitle?: string;
  /** Focus the heading when the screen appears (leave false when a field takes the focus instead). */
  focusHeading?: boolean;
  /**
   * The step the screen shows, for a screen of several steps: when it changes, the step before's controls are
   * gone, so the focus moves back to the heading (when `focusHeading`), where reading the new step starts.
   */
  step?: string;
  /** Uses a wide window's width (the wallet home's two columns); other screens keep a phone's column. */
  wide?: boolean;
  children: ReactNode;
}

/** One screen of the app: a card with its heading, named in the tab's title. */
export function Screen({
  title,
  pageTitle = title,
  focusHeading = true,
  step,
  wide = false,
  children,
}: ScreenProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(focusHeading ? heading : noFocus);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    if (focusHeading) heading.current?.focus();
  }, [step, focusHeading]);
  useEffect(() => {
    // The history and the tab list name each screen; a screen reader reads it on Back and Forward.
    document.title = `${pageTitle} · Dial`;
  }, [pageTitle]);
  return (
    <section className={wide ? 'card card-wide' : 'card'} aria-labelledby="screen-title">
      <h1 id="screen-title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </section>
  );
}

const noFocus = { current: null };
