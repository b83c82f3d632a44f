// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {BasePaymaster} from "@account-abstraction/contracts/core/BasePaymaster.sol";
import {_packValidationData} from "@account-abstraction/contracts/core/Helpers.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/**
 * Dial's verifying paymaster for EntryPoint v0.8: it pays for a user operation that the operator's paymaster
 * signer (a key of Dial's server) signed, within the signature's validity window. The server signs only what
 * its sponsorship policy allows (which calls, each account's daily budget, the operator's daily cap), so the
 * contract holds no policy of its own. Built on eth-infinitism's audited BasePaymaster (deposit, stake and
 * withdrawal through the EntryPoint, owned through Ownable2Step) and OpenZeppelin's ECDSA.
 *
 * paymasterAndData: paymaster (20) | verification gas (16) | post-op gas (16) | validUntil (6) | validAfter (6)
 * | signature (65). The signed hash (`getHash`) covers the whole operation but its signatures, the chain, this
 * contract and the window: `dialPaymasterHash` in Dial's core package computes the same.
 */
contract DialPaymaster is BasePaymaster {
    uint256 private constant VALID_TIMESTAMP_OFFSET = PAYMASTER_DATA_OFFSET;
    uint256 private constant SIGNATURE_OFFSET = VALID_TIMESTAMP_OFFSET + 12;

    /** The key whose signature pays for an operation. */
    address public signer;

    event SignerChanged(address indexed previousSigner, address indexed newSigner);

    constructor(IEntryPoint entryPoint_, address signer_) BasePaymaster(entryPoint_) {
        require(signer_ != address(0), "DialPaymaster: no signer");
        signer = signer_;
        emit SignerChanged(address(0), signer_);
    }

    /** Replaces the signer (the owner only): a leaked signer key is retired by this. */
    function setSigner(address signer_) external onlyOwner {
        require(signer_ != address(0), "DialPaymaster: no signer");
        emit SignerChanged(signer, signer_);
        signer = signer_;
    }

    /** The hash the signer signs (as an EIP-191 message) to pay for `userOp` within the window. */
    function getHash(PackedUserOperation calldata userOp, uint48 validUntil, uint48 validAfter)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            abi.encode(
                userOp.sender,
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.accountGasLimits,
                uint256(bytes32(userOp.paymasterAndData[PAYMASTER_VALIDATION_GAS_OFFSET:PAYMASTER_DATA_OFFSET])),
                userOp.preVerificationGas,
                userOp.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter
            )
        );
    }

    /** Reads paymasterAndData's window and signature. */
    function parsePaymasterAndData(bytes calldata paymasterAndData)
        public
        pure
        returns (uint48 validUntil, uint48 validAfter, bytes calldata signature)
    {
        validUntil = uint48(bytes6(paymasterAndData[VALID_TIMESTAMP_OFFSET:VALID_TIMESTAMP_OFFSET + 6]));
        validAfter = uint48(bytes6(paymasterAndData[VALID_TIMESTAMP_OFFSET + 6:SIGNATURE_OFFSET]));
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }

    /**
     * Pays when the signer signed this operation: a wrong or malformed signature fails validation (the
     * EntryPoint then refuses the operation) rather than reverting, as ERC-4337 asks, except for a signature of
     * the wrong length, which no honest server sends.
     */
    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) =
            parsePaymasterAndData(userOp.paymasterAndData);
        require(signature.length == 65, "DialPaymaster: signature is not 65 bytes");
        bytes32 hash = MessageHashUtils.toEthSignedMessageHash(getHash(userOp, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError error,) = ECDSA.tryRecover(hash, signature);
        bool failed = error != ECDSA.RecoverError.NoError || recovered != signer;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }
}
