import { ErrorMessage } from '../ui/ErrorMessage';

/** A settings panel's load, as far as its status goes: `useAccountData`'s, or a panel's own of that shape. */
export type LoadedPart = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; error: unknown };

/**
 * What a settings panel shows of its part of the account until it is there: `loading` (announced) while it
 * loads, the error and "Try again" (which calls `reload`) when it could not be loaded, nothing once it is.
 */
export function LoadStatus({
  data,
  loading,
  reload,
}: {
  data: LoadedPart;
  loading: string;
  reload: () => void;
}) {
  if (data.status === 'loading') return <p role="status">{loading}</p>;
  if (data.status === 'ready') return null;
  return (
    <>
      <ErrorMessage error={data.error} />
      <button type="button" className="button button-secondary" onClick={reload}>
        Try again
      </button>
    </>
  );
}
