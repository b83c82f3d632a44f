import { describeError } from '../api/describeError';

interface ErrorMessageProps {
  error: unknown;
  id?: string;
}

/** An error as a person reads it, announced at once (role alert). Render it only when there is an error. */
export function ErrorMessage({ error, id }: ErrorMessageProps) {
  return (
    <p className="message message-error" role="alert" id={id}>
      {describeError(error)}
    </p>
  );
}
