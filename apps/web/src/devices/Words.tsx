/** The confirmation words, large and numbered, as one list a screen reader reads in order. */
export function Words({ words }: { words: readonly string[] }) {
  return (
    <ol className="link-words" aria-label="Confirmation words">
      {words.map((word, index) => (
        // The same word may come twice; its place tells them apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders.
        <li key={index}>{word}</li>
      ))}
    </ol>
  );
}
