/** The API's shapes, as the web app reads them: the types of the contract (`@dial/api`, types only). */
import type { PublicConfig } from '@dial/api';

export type {
  AccountChange,
  AccountProof,
  BrowserInfo,
  FaucetAsset,
  FaucetSent,
  LocalChainConfig,
  Notice,
  NoticeKind,
  NoticePage,
  OnrampAssetCode,
  OnrampInfo,
  OnrampOffer,
  OtpChannel,
  OtpStarted,
  OtpVerified,
  PasskeyAssertion,
  PasskeyCreationOptions,
  PasskeyKdf,
  PasskeyRegistration,
  PasskeyRequestOptions,
  Pbkdf2Kdf,
  ProtectedRecoveryShare,
  RecoveryKdf,
  RecoveryMethod,
  ScryptKdf,
  SessionInfo,
  SignInMethod,
  SiweNonce,
  StepUpProof,
  StoredWallet,
  User,
  WalletEvent,
  WalletProof,
} from '@dial/api';

/**
 * `GET /api/config`. Older servers leave out `channels` (then both), `rpcUrls` (none), `onramp` and
 * `walletConnect` (not offered).
 */
export type AppConfig = Omit<PublicConfig, 'channels' | 'rpcUrls' | 'onramp' | 'walletConnect'> &
  Partial<Pick<PublicConfig, 'channels' | 'rpcUrls' | 'onramp' | 'walletConnect'>>;
