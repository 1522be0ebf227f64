// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title DevnetToken
/// @notice A test ERC-20 of the devnet scenarios with any number of decimals (6 for USDC- and USDT-like coins, 18 for
/// DAI-like ones); its whole, fixed supply is minted once, at construction, to `recipient`.
contract DevnetToken is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address recipient)
        ERC20(name_, symbol_)
    {
        _decimals = decimals_;
        _mint(recipient, supply);
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }
}
