// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {FireToken} from "./FireToken.sol";
import {IFireRegistry, IFireGraduator, LaunchConfig} from "./FireInterfaces.sol";
import {IUniswapV3Factory, IUniswapV3Pool, INonfungiblePositionManager} from "./UniswapV3.sol";
import {TickMath} from "./TickMath.sol";

/// @title FireLaunch
/// @notice Launches tokens: deploys a FireToken, creates and initialises its token/WETH Uniswap v3 pool and puts the
/// whole supply into one single-sided liquidity position owned by this contract (NFT id kept per token).
/// @dev Prices and ticks of a launch configuration are given with the token as token0 (price = WETH per token).
/// When the new token sorts above WETH it is token1 and the pool gets the mirror image: ticks
/// [-tickUpper, -tickLower] and the inverse start price. `Ignited` reports ticks and price as used in the pool.
/// Rounding dust of the mint (a few wei of the token, if any) stays in this contract.
contract FireLaunch {
    /// @notice Everything known about one launch. Ticks and sqrt price are those of the pool (pool token order).
    struct Launch {
        address creator;
        address pool;
        uint256 positionId;
        uint24 fee;
        int24 tickLower;
        int24 tickUpper;
        uint160 sqrtPriceX96;
        bool tokenIsToken0;
        bool canonical;
        uint64 graduationConditionAt;
    }

    IFireRegistry public immutable registry;
    IUniswapV3Factory public immutable factory;
    INonfungiblePositionManager public immutable positionManager;
    address public immutable weth;

    mapping(address token => Launch) internal _launches;
    /// @notice All launched tokens in launch order.
    address[] public tokens;

    event Ignited(
        address indexed token,
        address indexed creator,
        address pool,
        uint24 fee,
        int24 tickLower,
        int24 tickUpper,
        uint160 sqrtPriceX96,
        bool canonical,
        uint256 positionId
    );
    event GraduationConditionRecorded(address indexed token, uint256 timestamp);

    error UnknownToken(address token);
    error InvalidTickRange();
    error NotSingleSided();
    error PoolPriceMismatch(address pool);
    error GraduationConditionNotMet(address token);
    error GraduationConditionAlreadyRecorded(address token);
    error NotStream(address caller);

    constructor(address registry_, address factory_, address positionManager_, address weth_) {
        registry = IFireRegistry(registry_);
        factory = IUniswapV3Factory(factory_);
        positionManager = INonfungiblePositionManager(positionManager_);
        weth = weth_;
    }

    // ---------------------------------------------------------------- launching

    /// @notice Launches a token with the registry's canonical configuration; the caller becomes its creator.
    function ignite(string calldata name, string calldata symbol) external returns (address token) {
        return _igniteCanonical(name, symbol, registry.launchConfig());
    }

    /// @notice Launches a token with a custom configuration (token-as-token0 view: `sqrtPriceX96` = sqrt(WETH per
    /// token) * 2^96, at or below the price of `tickLower`). Emits `Ignited` with `canonical = false` unless the
    /// arguments equal the canonical configuration (then it is exactly `ignite`). Supply is the canonical supply.
    /// @dev For a token that becomes token1, the start price is 2^192 / sqrtPriceX96, raised if needed to the exact
    /// price of tick -tickLower so that rounding never moves it inside the range.
    function igniteWithConfig(
        string calldata name,
        string calldata symbol,
        uint24 fee,
        uint160 sqrtPriceX96,
        int24 tickLower,
        int24 tickUpper
    ) external returns (address token) {
        LaunchConfig memory c = registry.launchConfig();
        if (
            fee == c.fee && tickLower == c.tickLower && tickUpper == c.tickUpper
                && sqrtPriceX96 == TickMath.getSqrtRatioAtTick(c.startTick)
        ) return _igniteCanonical(name, symbol, c);

        if (tickLower >= tickUpper || tickLower < TickMath.MIN_TICK || tickUpper > TickMath.MAX_TICK) {
            revert InvalidTickRange();
        }
        if (sqrtPriceX96 < TickMath.MIN_SQRT_RATIO || sqrtPriceX96 > TickMath.getSqrtRatioAtTick(tickLower)) {
            revert NotSingleSided();
        }
        token = address(new FireToken(name, symbol, c.totalSupply, address(this)));
        uint160 sqrtPrice = sqrtPriceX96;
        if (token > weth) {
            uint256 inverse = (uint256(1) << 192) / sqrtPriceX96;
            uint160 edge = TickMath.getSqrtRatioAtTick(-tickLower);
            sqrtPrice = inverse < edge ? edge : uint160(inverse);
        }
        _provide(token, fee, sqrtPrice, tickLower, tickUpper, c.totalSupply, false);
    }

    function _igniteCanonical(string calldata name, string calldata symbol, LaunchConfig memory c)
        internal
        returns (address token)
    {
        token = address(new FireToken(name, symbol, c.totalSupply, address(this)));
        uint160 sqrtPrice = TickMath.getSqrtRatioAtTick(token < weth ? c.startTick : -c.startTick);
        _provide(token, c.fee, sqrtPrice, c.tickLower, c.tickUpper, c.totalSupply, true);
    }

    /// @dev `sqrtPrice` is already in pool orientation; the ticks are still in the token-as-token0 view.
    function _provide(
        address token,
        uint24 fee,
        uint160 sqrtPrice,
        int24 tickLower,
        int24 tickUpper,
        uint256 supply,
        bool canonical
    ) internal {
        Launch memory l;
        l.creator = msg.sender;
        l.fee = fee;
        l.sqrtPriceX96 = sqrtPrice;
        l.canonical = canonical;
        l.tokenIsToken0 = token < weth;
        (l.tickLower, l.tickUpper) = l.tokenIsToken0 ? (tickLower, tickUpper) : (-tickUpper, -tickLower);

        _createPool(l, token);
        l.positionId = _mintPosition(l, token, supply);

        _launches[token] = l;
        tokens.push(token);
        emit Ignited(
            token, msg.sender, l.pool, l.fee, l.tickLower, l.tickUpper, l.sqrtPriceX96, l.canonical, l.positionId
        );
    }

    function _createPool(Launch memory l, address token) internal {
        int24 spacing = factory.feeAmountTickSpacing(l.fee);
        if (spacing <= 0 || l.tickLower % spacing != 0 || l.tickUpper % spacing != 0) revert InvalidTickRange();
        (address token0, address token1) = l.tokenIsToken0 ? (token, weth) : (weth, token);
        l.pool = positionManager.createAndInitializePoolIfNecessary(token0, token1, l.fee, l.sqrtPriceX96);
        // Someone may have created and initialised the pool of this (predictable) address at another price.
        (uint160 poolPrice,,,,,,) = IUniswapV3Pool(l.pool).slot0();
        if (poolPrice != l.sqrtPriceX96) revert PoolPriceMismatch(l.pool);
    }

    function _mintPosition(Launch memory l, address token, uint256 supply) internal returns (uint256 positionId) {
        IERC20(token).approve(address(positionManager), supply);
        (positionId,,,) = positionManager.mint(
            INonfungiblePositionManager.MintParams({
                token0: l.tokenIsToken0 ? token : weth,
                token1: l.tokenIsToken0 ? weth : token,
                fee: l.fee,
                tickLower: l.tickLower,
                tickUpper: l.tickUpper,
                amount0Desired: l.tokenIsToken0 ? supply : 0,
                amount1Desired: l.tokenIsToken0 ? 0 : supply,
                amount0Min: 0,
                amount1Min: 0,
                recipient: address(this),
                deadline: block.timestamp
            })
        );
    }

    // ---------------------------------------------------------------- graduation and fees

    /// @notice Records the moment the token first met `FireGraduator.canGraduate`; starts the grace period.
    /// Anyone may call it; it can be recorded once per token.
    function recordGraduationCondition(address token) external {
        Launch storage l = _launches[token];
        if (l.pool == address(0)) revert UnknownToken(token);
        if (l.graduationConditionAt != 0) revert GraduationConditionAlreadyRecorded(token);
        if (!IFireGraduator(registry.graduator()).canGraduate(token)) revert GraduationConditionNotMet(token);
        l.graduationConditionAt = uint64(block.timestamp);
        emit GraduationConditionRecorded(token, block.timestamp);
    }

    /// @notice Collects all fees owed to the token's position and sends them to the caller, which must be the
    /// registry's `stream` (FireStream). Amounts are in pool token order.
    function collectFees(address token) external returns (uint256 amount0, uint256 amount1) {
        if (msg.sender != registry.stream()) revert NotStream(msg.sender);
        Launch storage l = _launches[token];
        if (l.pool == address(0)) revert UnknownToken(token);
        return positionManager.collect(
            INonfungiblePositionManager.CollectParams({
                tokenId: l.positionId,
                recipient: msg.sender,
                amount0Max: type(uint128).max,
                amount1Max: type(uint128).max
            })
        );
    }

    // ---------------------------------------------------------------- views

    function creatorOf(address token) external view returns (address) {
        return _launches[token].creator;
    }

    function poolOf(address token) external view returns (address) {
        return _launches[token].pool;
    }

    function positionIdOf(address token) external view returns (uint256) {
        return _launches[token].positionId;
    }

    function isCanonical(address token) external view returns (bool) {
        return _launches[token].canonical;
    }

    /// @notice Timestamp recorded by `recordGraduationCondition`, 0 if not recorded.
    function graduationConditionAt(address token) external view returns (uint256) {
        return _launches[token].graduationConditionAt;
    }

    function launchOf(address token) external view returns (Launch memory) {
        return _launches[token];
    }

    function launchCount() external view returns (uint256) {
        return tokens.length;
    }

    /// @notice The registry's canonical launch configuration (token-as-token0 view).
    function launchConfig() external view returns (LaunchConfig memory) {
        return registry.launchConfig();
    }

    /// @notice The canonical configuration as it appears in a pool, for a token that is token0 or token1 there.
    function canonicalPoolConfig(bool tokenIsToken0)
        external
        view
        returns (uint24 fee, uint160 sqrtPriceX96, int24 tickLower, int24 tickUpper)
    {
        LaunchConfig memory c = registry.launchConfig();
        fee = c.fee;
        if (tokenIsToken0) {
            (sqrtPriceX96, tickLower, tickUpper) = (TickMath.getSqrtRatioAtTick(c.startTick), c.tickLower, c.tickUpper);
        } else {
            (sqrtPriceX96, tickLower, tickUpper) =
                (TickMath.getSqrtRatioAtTick(-c.startTick), -c.tickUpper, -c.tickLower);
        }
    }
}
