import { DialError } from '@dial/core';
import { Component, type ReactNode } from 'react';
import { ErrorMessage } from './ErrorMessage';

interface LoadFailureBoundaryProps {
  children: ReactNode;
}

/**
 * Catches a lazy screen whose code could not be downloaded (offline, or a new deployment removed the old
 * chunk), or that failed while rendering, and offers to reload instead of leaving a blank page.
 */
export class LoadFailureBoundary extends Component<LoadFailureBoundaryProps, { error: DialError | null }> {
  override state: { error: DialError | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: DialError } {
    // A failed dynamic import is a TypeError ("Failed to fetch dynamically imported module").
    return {
      error: new DialError(error instanceof TypeError ? 'network_error' : 'internal_error', { cause: error }),
    };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="card">
        <ErrorMessage error={this.state.error} />
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
