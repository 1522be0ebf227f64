// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IFireRegistry, IFireLaunch} from "./FireInterfaces.sol";

/// @title FireGraduator
/// @notice Decides and records graduation of launched tokens.
///
/// Graduation condition (`canGraduate`): the token's Uniswap v3 pool holds at least `registry.graduationThreshold()`
/// WETH (its WETH balance, i.e. WETH paid in by buyers plus uncollected swap fees). A few buys on a devnet reach it.
///
/// Sequence: `canGraduate(token)` becomes true, anyone calls `FireLaunch.recordGraduationCondition(token)` (stores the
/// time T), then anyone may call `graduate(token)`:
///  - from T + `gracePeriodDuration` on, if `canGraduate(token)` is still true;
///  - from T + `forceGraduationDelay` on (never earlier than the grace period), unconditionally, even if the pool
///    fell below the threshold again, so that a recorded graduation cannot be held off forever by selling.
/// Graduation is final: it ends fuel withdrawals (FuelVault) and starts fee streaming (FireStream).
contract FireGraduator {
    IFireRegistry public immutable registry;

    /// @notice Timestamp of graduation, 0 if not graduated.
    mapping(address token => uint256) public graduatedAt;

    event Graduated(address indexed token, uint256 timestamp);

    error UnknownToken(address token);
    error AlreadyGraduated(address token);
    error GraduationConditionNotRecorded(address token);
    error GracePeriodNotOver(address token, uint256 readyAt);
    error GraduationConditionNoLongerMet(address token, uint256 forceAt);

    constructor(address registry_) {
        registry = IFireRegistry(registry_);
    }

    /// @notice True when the token's pool holds at least `registry.graduationThreshold()` WETH.
    function canGraduate(address token) public view returns (bool) {
        IFireLaunch launch = IFireLaunch(registry.launch());
        address pool = launch.poolOf(token);
        if (pool == address(0)) return false;
        return IERC20(launch.weth()).balanceOf(pool) >= registry.graduationThreshold();
    }

    function isGraduated(address token) external view returns (bool) {
        return graduatedAt[token] != 0;
    }

    /// @notice Graduation timing of a token: condition time (0 = not recorded), earliest normal graduation, earliest
    /// forced graduation (both 0 when not recorded) and graduation time (0 = not graduated).
    function graduationStatus(address token)
        external
        view
        returns (bool conditionMet, uint256 conditionAt, uint256 readyAt, uint256 forceAt, uint256 graduated)
    {
        conditionMet = canGraduate(token);
        conditionAt = IFireLaunch(registry.launch()).graduationConditionAt(token);
        if (conditionAt != 0) {
            readyAt = conditionAt + registry.gracePeriodDuration();
            forceAt = conditionAt + registry.forceGraduationDelay();
        }
        graduated = graduatedAt[token];
    }

    /// @notice Graduates `token` (see the contract notice for when). Callable by anyone.
    function graduate(address token) external {
        if (graduatedAt[token] != 0) revert AlreadyGraduated(token);
        IFireLaunch launch = IFireLaunch(registry.launch());
        if (launch.poolOf(token) == address(0)) revert UnknownToken(token);
        uint256 conditionAt = launch.graduationConditionAt(token);
        if (conditionAt == 0) revert GraduationConditionNotRecorded(token);
        uint256 readyAt = conditionAt + registry.gracePeriodDuration();
        if (block.timestamp < readyAt) revert GracePeriodNotOver(token, readyAt);
        uint256 forceAt = conditionAt + registry.forceGraduationDelay();
        if (block.timestamp < forceAt && !canGraduate(token)) revert GraduationConditionNoLongerMet(token, forceAt);
        graduatedAt[token] = block.timestamp;
        emit Graduated(token, block.timestamp);
    }
}
