import { LOCAL_CHAIN_ID } from '@dial/core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type AppConfig, ConfigError, loadConfig } from './config/index.js';
import { readShareKey } from './crypto/readShareKey.js';
import {
  type Bundler,
  type DevChain,
  devPaymasterSignerKey,
  startBundler,
  startDevChain,
} from './devchain/index.js';

/**
 * Starts Dial: reads the configuration and the master key (generating its file on the first start outside
 * production), starts the local dev chain when it is on (development), builds the app (migrating the
 * database) and listens. Stops cleanly on SIGINT and SIGTERM.
 */
async function main(): Promise<void> {
  let config: AppConfig;
  try {
    const { shareKey, ...loaded } = loadConfig();
    config = { ...loaded, shareEncryptionKey: readShareKey(shareKey) };
  } catch (error) {
    if (error instanceof ConfigError) return fail(`Dial cannot start: ${error.message}`);
    throw error;
  }

  let chain: DevChain | undefined;
  let bundler: Bundler | undefined;
  let app: FastifyInstance | undefined;
  const stop = async () => {
    await app?.close();
    await bundler?.close();
    await chain?.close();
  };

  try {
    if (config.localChain?.start === true) {
      chain = await startDevChain({ host: '127.0.0.1', port: config.localChain.port });
      config = { ...config, localChain: { ...config.localChain, rpcUrl: chain.url, usdc: chain.usdc } };
      // The local chain's ERC-4337 bundler, and its DialPaymaster (signed for by the dev signer) as the
      // local chain's paymaster unless one is configured.
      bundler = await startBundler({
        rpcUrl: chain.url,
        entryPoint: chain.accountAbstraction.entryPoint,
        port: config.localChain?.bundlerPort ?? 4337,
      });
      const sponsorship = config.sponsorship;
      if (sponsorship.paymasters[LOCAL_CHAIN_ID] === undefined && sponsorship.signerKey === null) {
        config = {
          ...config,
          sponsorship: {
            ...sponsorship,
            bundlerUrls: { ...sponsorship.bundlerUrls, [LOCAL_CHAIN_ID]: bundler.url },
            paymasters: {
              ...sponsorship.paymasters,
              [LOCAL_CHAIN_ID]: { kind: 'dial', address: chain.accountAbstraction.paymaster },
            },
            signerKey: await devPaymasterSignerKey(),
          },
        };
      }
    }
    app = await buildApp(config);
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await stop().catch(() => {});
    return fail(`Dial cannot start: ${error instanceof Error ? error.message : String(error)}`);
  }

  console.log(`Dial is running at ${config.publicUrl}`);
  if (config.environment !== 'production') {
    console.log(
      `Dev outbox (codes sent without SMTP or Twilio): ${new URL('/dev/outbox', config.publicUrl)}`,
    );
  }
  if (config.localChain !== null) {
    const usdc = config.localChain.usdc;
    console.log(`Local chain (31337) at ${config.localChain.rpcUrl}${usdc ? `, test USDC at ${usdc}` : ''}`);
    if (bundler !== undefined) console.log(`Local bundler (ERC-4337) at ${bundler.url}`);
  }

  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C: do not wait any longer.
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: stopping Dial…`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Dial did not stop cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

function fail(message: string): void {
  console.error(message);
  process.exitCode = 1;
}

await main();
