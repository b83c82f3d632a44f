// The reference of the server benches: a bare Fastify server, the same Fastify the Dial server uses
// (resolved from apps/server), with two JSON routes: `GET /bare` answers what `/api/health` answers
// (bench/server.mjs, bench/memory.mjs), `POST /bare` parses a JSON body and answers at once (the sign-in
// round's reference, bench/signin.mjs). Listens on HOST:PORT; stops on SIGTERM.
import { createRequire } from 'node:module';

const Fastify = createRequire(new URL('../apps/server/package.json', import.meta.url))('fastify');
const app = Fastify();
app.get('/bare', async () => ({ ok: true }));
app.post('/bare', async (request) => ({ ok: true, to: request.body?.to }));
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => {
  app.close().then(() => process.exit(0));
});
