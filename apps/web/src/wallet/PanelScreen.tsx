import type { ReactNode } from 'react';
import { closeScreen } from '../navigation/navigate';
import { SCREEN_PATHS } from '../navigation/routes';
import { PanelIsScreenContext } from '../ui/PanelHeading';
import { Screen } from '../ui/Screen';

interface PanelScreenProps {
  title: string;
  /** The screen's path: "Back" returns to where it was opened from, else to the wallet home. */
  path: string;
  children: ReactNode;
}

/**
 * A part of the wallet home on a screen of its own (`/receive`, `/activity`, …), with a way back. The screen
 * has one heading, its title: the panel's own heading is left out (`PanelHeading`), and the panel is not
 * drawn as a card inside the card (`.panel-screen` in styles.css).
 */
export function PanelScreen({ title, path, children }: PanelScreenProps) {
  return (
    <Screen title={title}>
      <PanelIsScreenContext value={true}>
        <div className="panel-screen">{children}</div>
      </PanelIsScreenContext>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => closeScreen(path, SCREEN_PATHS.home)}
        >
          Back
        </button>
      </div>
    </Screen>
  );
}
