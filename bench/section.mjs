// One section of `npm run bench` in a process of its own (bench/index.mjs `runInOwnProcess`):
//
//   node bench/section.mjs <module> <export>
//
// Takes the section's options as its first IPC message, sends each line the section logs as `{ log }`, and
// then `{ rows }`, or `{ error }` (the stack) when the section threw.
const [file, exported] = process.argv.slice(2);

process.once('message', async (options) => {
  const send = (message) => new Promise((resolve) => process.send(message, resolve));
  try {
    const module = await import(new URL(file, import.meta.url).href);
    const rows = await module[exported]({ ...options, log: (line) => process.send({ log: line }) });
    await send({ rows });
  } catch (error) {
    await send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
  // The section stopped what it started; anything it left open must not keep the bench waiting.
  process.exit();
});
