/**
 * `@dial/core`: Dial's shared library, for browsers and Node. Phone numbers and e-mail addresses, the
 * supported chains, wallet-connection limits, embedded-wallet key shares, the embedded wallet's EIP-1193
 * provider, and the error catalogue.
 *
 * @packageDocumentation
 */

export * from './accountCalls.js';
export * from './accountChangeMessage.js';
export * from './activityPages.js';
export * from './buildOnrampUrl.js';
export * from './chains.js';
export * from './channels.js';
export * from './checkScryptCost.js';
export * from './combineWalletShares.js';
export * from './countryCallingCodes.js';
export * from './createEmbeddedProvider.js';
export * from './createWalletShares.js';
export * from './decodeShare.js';
export * from './defaultCountryFromLocale.js';
export * from './deviceLink.js';
export * from './dialPaymaster.js';
export * from './durations.js';
export * from './encodeShare.js';
export * from './errors.js';
export * from './examplePhone.js';
export * from './findCause.js';
export * from './formatPhoneInput.js';
export * from './formatPhoneInternational.js';
export * from './hasControlCharacter.js';
export * from './isValidEmail.js';
export * from './isValidPhone.js';
export * from './listCountries.js';
export * from './maskIdentifier.js';
export * from './normalizeEmail.js';
export * from './normalizeOnrampAmount.js';
export * from './oneTimeCode.js';
export * from './onrampOffers.js';
export * from './parsePhone.js';
export * from './passkeyChangeChallenge.js';
export * from './readAddress.js';
export * from './readE164.js';
export * from './readInternationalPhone.js';
export * from './readOnrampAmount.js';
export * from './recoveryOprf.js';
export * from './sendTransactionWithFallback.js';
export * from './shortenAddress.js';
export * from './toE164.js';
export * from './usdc.js';
export * from './walletConnectionLimits.js';
export * from './walletProofMessage.js';
