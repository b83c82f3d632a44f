interface FieldMessageProps {
  /** The field's id: the message's id is `${fieldId}-error` or `${fieldId}-hint`, for aria-describedby. */
  fieldId: string;
  /** The inline error, announced at once; when null the hint shows instead. */
  error: string | null;
  hint: string;
}

/** The id of the message under a field, for its aria-describedby. */
export function fieldMessageId(fieldId: string, error: string | null): string {
  return `${fieldId}-${error !== null ? 'error' : 'hint'}`;
}

/** The line under a form field: its inline error (role alert) or, when there is none, its hint. */
export function FieldMessage({ fieldId, error, hint }: FieldMessageProps) {
  return error !== null ? (
    <p className="message message-error" id={fieldMessageId(fieldId, error)} role="alert">
      {error}
    </p>
  ) : (
    <p className="hint" id={fieldMessageId(fieldId, error)}>
      {hint}
    </p>
  );
}
