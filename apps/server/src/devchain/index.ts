export { TEST_USDC_ABI } from './contracts/testUsdcArtifact.js';
export {
  DEV_FAUCET_PRIVATE_KEY,
  type DevChain,
  type DevChainOptions,
  DevChainPortInUseError,
  startDevChain,
} from './devChain.js';
export { type MintTestUsdcOptions, mintTestUsdc } from './mintTestUsdc.js';
export { type SendFromFaucetOptions, sendFromFaucet } from './sendFromFaucet.js';
