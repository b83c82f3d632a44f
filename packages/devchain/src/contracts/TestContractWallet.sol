// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Test contract wallet
/// @notice A smart-contract account for Dial's tests only: it holds nothing and does nothing but answer
/// ERC-1271's `isValidSignature`, saying a signature is valid when its owner (an ordinary key, EOA) signed
/// the hash. The server's Sign-In with Ethereum tests sign in with it (ERC-1271, deployed) and with one not
/// deployed yet (ERC-6492: the signature carries the factory call that would deploy it).
/// @dev Deliberately minimal: no replay protection across wallets of one owner, no check of `s`'s half
/// (malleable signatures pass). Never deploy it anywhere that matters.
contract TestContractWallet {
    /// @notice ERC-1271's answer for a valid signature: `isValidSignature.selector`.
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    /// @notice ERC-1271's conventional answer for an invalid one.
    bytes4 internal constant INVALID = 0xffffffff;

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice Valid when `signature` (65 bytes: r, s, v) is `owner`'s ECDSA signature of `hash`.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC_VALUE : INVALID;
    }
}

/// @title Test contract wallet factory
/// @notice Deploys a {TestContractWallet} for an owner at a CREATE2 address known before it exists, which is
/// what ERC-6492 (signatures of counterfactual wallets) needs.
contract TestContractWalletFactory {
    event Deployed(address wallet, address owner, bytes32 salt);

    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = address(new TestContractWallet{salt: salt}(owner));
        emit Deployed(wallet, owner, salt);
    }
}
