// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MinimalTestToken} from "./MinimalTestToken.sol";

/// @notice Test token that burns `feeBps` of every transfer except those from the initial holder (as many such tokens
/// exempt their deployer, which is how liquidity gets into a pool at all): the recipient gets less than was sent.
contract FeeOnTransferToken is MinimalTestToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public immutable feeBps;
    address public immutable feeExempt;

    constructor(string memory name_, string memory symbol_, uint256 feeBps_, uint256 supply, address holder)
        MinimalTestToken(supply, holder)
    {
        name = name_;
        symbol = symbol_;
        feeBps = feeBps_;
        feeExempt = holder;
    }

    function _received(address from, uint256 value) internal view override returns (uint256) {
        return from == feeExempt ? value : value - (value * feeBps) / 10_000;
    }
}
