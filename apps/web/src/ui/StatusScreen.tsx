interface StatusScreenProps {
  message: string;
}

/** A screen that only says what is going on (loading, opening the wallet…). */
export function StatusScreen({ message }: StatusScreenProps) {
  return (
    <div className="card card-status">
      <span className="spinner" aria-hidden="true" />
      <p role="status">{message}</p>
    </div>
  );
}
