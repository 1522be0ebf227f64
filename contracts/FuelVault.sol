// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IFireRegistry, IFireLaunch, IFireGraduator} from "./FireInterfaces.sol";

/// @title FuelVault
/// @notice Fuel: ETH that anyone except the creator gives to a launched token's creator. It accrues per token and
/// the creator's share is paid out by `withdraw` until the token graduates. Giving and withdrawing end at
/// graduation; fuel not withdrawn by then stays in the vault.
contract FuelVault {
    IFireRegistry public immutable registry;

    /// @notice Fuel accrued for the token's creator and not yet withdrawn (wei).
    mapping(address token => uint256) public fuelOf;
    /// @notice All fuel ever given for the token (wei).
    mapping(address token => uint256) public totalFuelGiven;

    event FuelGiven(address indexed token, address indexed from, address indexed creator, uint256 amount);
    event FuelWithdrawn(address indexed token, address indexed creator, uint256 amount);

    error SelfGiftNotAllowed();
    error UnknownToken(address token);
    error ZeroAmount();
    error AlreadyGraduated(address token);
    error NothingToWithdraw(address token);
    error TransferFailed();

    constructor(address registry_) {
        registry = IFireRegistry(registry_);
    }

    /// @notice Gives `msg.value` wei of fuel to the creator of `token`.
    function give(address token) external payable {
        address creator = _creatorOf(token);
        if (msg.value == 0) revert ZeroAmount();
        if (msg.sender == creator) revert SelfGiftNotAllowed();
        _requireNotGraduated(token);
        fuelOf[token] += msg.value;
        totalFuelGiven[token] += msg.value;
        emit FuelGiven(token, msg.sender, creator, msg.value);
    }

    /// @notice Pays the creator of `token` all its accrued fuel. Anyone may trigger it; the ETH always goes to the
    /// creator. Only before graduation.
    function withdraw(address token) external returns (uint256 amount) {
        address creator = _creatorOf(token);
        _requireNotGraduated(token);
        amount = fuelOf[token];
        if (amount == 0) revert NothingToWithdraw(token);
        fuelOf[token] = 0;
        (bool ok,) = creator.call{value: amount}("");
        if (!ok) revert TransferFailed();
        emit FuelWithdrawn(token, creator, amount);
    }

    function _creatorOf(address token) internal view returns (address creator) {
        creator = IFireLaunch(registry.launch()).creatorOf(token);
        if (creator == address(0)) revert UnknownToken(token);
    }

    function _requireNotGraduated(address token) internal view {
        if (IFireGraduator(registry.graduator()).isGraduated(token)) revert AlreadyGraduated(token);
    }
}
