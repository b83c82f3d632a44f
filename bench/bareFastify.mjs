// The reference of the server bench (bench/server.mjs): a bare Fastify server, the same Fastify the Dial
// server uses (resolved from apps/server), with one JSON route, `GET /bare`, answering what `/api/health`
// answers. Listens on HOST:PORT; stops on SIGTERM.
import { createRequire } from 'node:module';

const Fastify = createRequire(new URL('../apps/server/package.json', import.meta.url))('fastify');
const app = Fastify();
app.get('/bare', async () => ({ ok: true }));
await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => {
  app.close().then(() => process.exit(0));
});
