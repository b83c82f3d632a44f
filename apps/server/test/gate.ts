/** A promise a test opens when it chooses: `await gate.opened` waits until `gate.open()` is called. */
export interface Gate {
  opened: Promise<void>;
  open: () => void;
}

/** A closed {@link Gate}, to hold one side of a race (a transaction, a task) until the test lets it go on. */
export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
