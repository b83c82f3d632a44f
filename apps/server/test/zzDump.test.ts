import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { useTestDatabase } from './databases.js';
import { createTestApp, SANDBOX_ONRAMP } from './testApp.js';
const db = useTestDatabase('sqlite');
it('dumps', async () => {
  const t = await createTestApp(db(), {
    config: { localChain: { start: false, port: 8545, rpcUrl: 'http://127.0.0.1:9', usdc: null }, onramp: SANDBOX_ONRAMP },
  });
  const response = await t.get('/api/openapi.json');
  writeFileSync(process.env.DUMP_TO!, JSON.stringify(response.json(), null, 2));
});
