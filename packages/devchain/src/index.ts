// @dial/devchain: the local EVM chain of development and tests. Never loaded by a production server (the
// server imports it lazily, with LOCAL_CHAIN on), and EDR, the EVM behind it, is a dev dependency only.
export {
  type AccountAbstractionContracts,
  accountAbstractionBytecode,
  DEV_PAYMASTER_DEPOSIT_WEI,
  deterministicAddress,
} from './accountAbstraction.js';
export { type Bundler, type BundlerOptions, BundlerStartError, startBundler } from './bundler.js';
export { DIAL_PAYMASTER_ABI } from './contracts/dialPaymasterArtifact.js';
export {
  TEST_CONTRACT_WALLET_ABI,
  TEST_CONTRACT_WALLET_FACTORY_ABI,
} from './contracts/testContractWalletArtifact.js';
export { TEST_USDC_ABI } from './contracts/testUsdcArtifact.js';
export { DETERMINISTIC_DEPLOYER } from './deterministicDeployer.js';
export {
  DEV_BUNDLER_EXECUTOR_PRIVATE_KEY,
  DEV_BUNDLER_UTILITY_PRIVATE_KEY,
  DEV_FAUCET_ADDRESS,
  DEV_FAUCET_BALANCE_WEI,
  DEV_FAUCET_PRIVATE_KEY,
  DEV_PAYMASTER_SIGNER_ADDRESS,
  DEV_PAYMASTER_SIGNER_PRIVATE_KEY,
} from './devAccount.js';
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
