export {
  DEV_FAUCET_PRIVATE_KEY,
  type DevChain,
  type DevChainOptions,
  DevChainPortInUseError,
  startDevChain,
} from './devChain.js';
export { type SendFromFaucetOptions, sendFromFaucet } from './sendFromFaucet.js';
