// @dial/devchain: the local EVM chain of development and tests. Never loaded by a production server (the
// server imports it lazily, with LOCAL_CHAIN on), and EDR, the EVM behind it, is a dev dependency only.
export {
  TEST_CONTRACT_WALLET_ABI,
  TEST_CONTRACT_WALLET_FACTORY_ABI,
} from './contracts/testContractWalletArtifact.js';
export { TEST_USDC_ABI } from './contracts/testUsdcArtifact.js';
export { DEV_FAUCET_ADDRESS, DEV_FAUCET_BALANCE_WEI, DEV_FAUCET_PRIVATE_KEY } from './devAccount.js';
export { type DevChain, type DevChainOptions, DevChainPortInUseError, startDevChain } from './devChain.js';
export { type LocalChain, LocalChainRpcError, startLocalChain } from './localChain.js';
export { type MintTestUsdcOptions, mintTestUsdc } from './mintTestUsdc.js';
export { type SendFromFaucetOptions, sendFromFaucet } from './sendFromFaucet.js';
export {
  deployTestContractWallet,
  deployTestContractWalletFactory,
  testContractWalletAddress,
  testContractWalletDeployCall,
  testContractWalletSalt,
} from './testContractWallet.js';
