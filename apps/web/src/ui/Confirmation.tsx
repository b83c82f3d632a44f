import { useEffect, useState } from 'react';

interface ConfirmationProps {
  /** What succeeded, or empty (the region stays in the page, taking no room). */
  message: string;
  /** The region's accessible name, when a screen has more than one. */
  label?: string;
}

/**
 * A success, shown and announced politely (role status). The region is in the page before its text: a
 * message that arrives with its screen (the screen a flow returns to) is filled in a moment later, so
 * screen readers read it rather than taking it for part of the new page.
 */
export function Confirmation({ message, label }: ConfirmationProps) {
  const [shown, setShown] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setShown(message), 50);
    return () => clearTimeout(timer);
  }, [message]);
  return (
    <p className="message message-success" role="status" aria-live="polite" aria-label={label}>
      {shown}
    </p>
  );
}
