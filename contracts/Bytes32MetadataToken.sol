// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MinimalTestToken} from "./MinimalTestToken.sol";

/// @notice Test token with `name()` and `symbol()` returning bytes32 (as MKR and SAI do), 18 decimals.
contract Bytes32MetadataToken is MinimalTestToken {
    bytes32 public immutable name;
    bytes32 public immutable symbol;
    uint8 public constant decimals = 18;

    constructor(bytes32 name_, bytes32 symbol_, uint256 supply, address holder) MinimalTestToken(supply, holder) {
        name = name_;
        symbol = symbol_;
    }
}
