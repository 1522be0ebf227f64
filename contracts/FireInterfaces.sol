// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Canonical launch configuration, written from the point of view of the launched token as token0 of the
/// token/WETH pool (price = WETH per token). When a token sorts above WETH (it is token1) the launch uses the mirror:
/// ticks [-tickUpper, -tickLower] and start tick -startTick.
/// @dev `startTick <= tickLower < tickUpper`: the start price is at or below the range, so the position holds only
/// the token (single-sided). With `startTick == tickLower` the liquidity is active from the first swap.
/// The start prices are data, not computed on-chain: `sqrtPriceX96` must be the exact Uniswap v3 sqrt price of
/// `startTick` (`TickMath.getSqrtRatioAtTick(startTick)`, used when the token is token0) and `sqrtPriceX96Inverted`
/// the exact sqrt price of `-startTick` (used when the token is token1). `FireLaunch` additionally checks in the pool
/// that every launch is single-sided.
struct LaunchConfig {
    uint24 fee;
    int24 startTick;
    int24 tickLower;
    int24 tickUpper;
    uint256 totalSupply;
    uint160 sqrtPriceX96;
    uint160 sqrtPriceX96Inverted;
}

/// @notice One receiver of streamed fees after graduation; gets `bps / streamingRecipientsTotalBps` of each claim.
struct FeeRecipient {
    address account;
    uint16 bps;
}

interface IFireRegistry {
    function governance() external view returns (address);
    function gracePeriodDuration() external view returns (uint256);
    function forceGraduationDelay() external view returns (uint256);
    function streamingRecipientsTotalBps() external view returns (uint256);
    function graduationThreshold() external view returns (uint256);
    function launchConfig() external view returns (LaunchConfig memory);
    function feeRecipients() external view returns (FeeRecipient[] memory);
    function launch() external view returns (address);
    function graduator() external view returns (address);
    function fuelVault() external view returns (address);
    function stream() external view returns (address);
}

interface IFireLaunch {
    function weth() external view returns (address);
    function creatorOf(address token) external view returns (address);
    function poolOf(address token) external view returns (address);
    function positionIdOf(address token) external view returns (uint256);
    function graduationConditionAt(address token) external view returns (uint256);
    function collectFees(address token) external returns (uint256 amount0, uint256 amount1);
}

interface IFireGraduator {
    function canGraduate(address token) external view returns (bool);
    function isGraduated(address token) external view returns (bool);
}
