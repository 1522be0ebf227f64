// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MinimalTestToken} from "./MinimalTestToken.sol";

/// @notice Test token without a `decimals()` function (it is optional in ERC-20): its amounts have no known scale.
contract NoDecimalsToken is MinimalTestToken {
    string public name;
    string public symbol;

    constructor(string memory name_, string memory symbol_, uint256 supply, address holder)
        MinimalTestToken(supply, holder)
    {
        name = name_;
        symbol = symbol_;
    }
}
