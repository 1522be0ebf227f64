// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {FireToken} from "./FireToken.sol";
import {IFireRegistry, IFireGraduator, LaunchConfig} from "./FireInterfaces.sol";
import {IUniswapV3Factory, IUniswapV3Pool, INonfungiblePositionManager} from "./UniswapV3.sol";

/// @title FireLaunch
/// @notice Launches tokens: deploys a FireToken, creates and initialises its token/WETH Uniswap v3 pool and puts the
/// whole supply into one single-sided liquidity position owned by this contract (NFT id kept per token).
/// @dev Prices and ticks of a launch configuration are given with the token as token0 (price = WETH per token).
/// When the new token sorts above WETH it is token1 and the pool gets the mirror image: ticks
/// [-tickUpper, -tickLower] and the inverse start price. `Ignited` reports ticks and price as used in the pool.
/// There is no tick math here: start prices come from the registry (exact tick prices, see `LaunchConfig`) or from
/// the caller, and single-sidedness is checked in the initialised pool itself (its `slot0().tick`).
/// Rounding dust of the mint (a few wei of the token, if any) stays in this contract.
contract FireLaunch {
    // Uniswap v3 protocol limits: the tick range and the sqrt price range [sqrt price of MIN_TICK, of MAX_TICK).
    int24 internal constant MIN_TICK = -887272;
    int24 internal constant MAX_TICK = 887272;
    uint160 internal constant MIN_SQRT_PRICE = 4295128739;
    uint160 internal constant MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342;

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
    /// The pool starts at the registry's `sqrtPriceX96` (token is token0) or `sqrtPriceX96Inverted` (token1).
    function ignite(string calldata name, string calldata symbol) external returns (address token) {
        LaunchConfig memory c = registry.launchConfig();
        return _ignite(name, symbol, c, c.fee, c.sqrtPriceX96, c.tickLower, c.tickUpper);
    }

    /// @notice Launches a token with a custom configuration (token-as-token0 view: `sqrtPriceX96` = sqrt(WETH per
    /// token) * 2^96, at or below the price of `tickLower`). Supply is the canonical supply. `Ignited` has
    /// `canonical = true` exactly when fee, ticks and start price in the pool equal the registry's canonical values
    /// for the token's order (`canonicalPoolConfig`); passing the canonical configuration is exactly `ignite`.
    /// @dev For a token that becomes token1 the pool starts at the inverse price: the registry's exact
    /// `sqrtPriceX96Inverted` if `sqrtPriceX96` is the canonical `sqrtPriceX96`, otherwise ceil(2^192 / sqrtPriceX96).
    /// The launch reverts with `NotSingleSided` if the pool price lands inside the range, also when only the
    /// inversion's rounding puts it there (pass a price a little below the price of `tickLower` to leave room), and
    /// for a `sqrtPriceX96` outside the pool's price range.
    function igniteWithConfig(
        string calldata name,
        string calldata symbol,
        uint24 fee,
        uint160 sqrtPriceX96,
        int24 tickLower,
        int24 tickUpper
    ) external returns (address token) {
        if (tickLower >= tickUpper || tickLower < MIN_TICK || tickUpper > MAX_TICK) revert InvalidTickRange();
        if (sqrtPriceX96 < MIN_SQRT_PRICE || sqrtPriceX96 >= MAX_SQRT_PRICE) revert NotSingleSided();
        return _ignite(name, symbol, registry.launchConfig(), fee, sqrtPriceX96, tickLower, tickUpper);
    }

    /// @dev `sqrtPriceX96` and the ticks are in the token-as-token0 view; `c` is the registry's configuration.
    function _ignite(
        string calldata name,
        string calldata symbol,
        LaunchConfig memory c,
        uint24 fee,
        uint160 sqrtPriceX96,
        int24 tickLower,
        int24 tickUpper
    ) internal returns (address token) {
        token = address(new FireToken(name, symbol, c.totalSupply, address(this)));
        Launch memory l;
        l.creator = msg.sender;
        l.fee = fee;
        l.tokenIsToken0 = token < weth;
        if (l.tokenIsToken0) {
            (l.sqrtPriceX96, l.tickLower, l.tickUpper) = (sqrtPriceX96, tickLower, tickUpper);
        } else {
            l.sqrtPriceX96 = sqrtPriceX96 == c.sqrtPriceX96 ? c.sqrtPriceX96Inverted : _inverse(sqrtPriceX96);
            (l.tickLower, l.tickUpper) = (-tickUpper, -tickLower);
        }
        l.canonical = _isCanonical(l, c);

        bool atLowerEdge = _createPool(l, token);
        l.positionId = _mintPosition(l, token, c.totalSupply, atLowerEdge);

        _launches[token] = l;
        tokens.push(token);
        emit Ignited(
            token, msg.sender, l.pool, l.fee, l.tickLower, l.tickUpper, l.sqrtPriceX96, l.canonical, l.positionId
        );
    }

    /// @dev ceil(2^192 / sqrtPriceX96): the inverse price, rounded towards the all-token1 side. For a price in
    /// [MIN_SQRT_PRICE, MAX_SQRT_PRICE) the result is in that range too.
    function _inverse(uint160 sqrtPriceX96) internal pure returns (uint160) {
        return uint160(((uint256(1) << 192) + sqrtPriceX96 - 1) / sqrtPriceX96);
    }

    function _isCanonical(Launch memory l, LaunchConfig memory c) internal pure returns (bool) {
        (uint24 fee, uint160 sqrtPriceX96, int24 tickLower, int24 tickUpper) = _poolConfig(c, l.tokenIsToken0);
        return l.fee == fee && l.sqrtPriceX96 == sqrtPriceX96 && l.tickLower == tickLower && l.tickUpper == tickUpper;
    }

    /// @dev Creates and initialises the pool, then checks single-sidedness in the pool. Uniswap v3
    /// (`UniswapV3Pool._modifyPosition`) takes only token0 for a position while the pool tick is below `tickLower`,
    /// only token1 while the tick is at or above `tickUpper`, and both in between. At `tick == tickLower` the WETH
    /// part is zero only if the price is exactly the price of `tickLower`; that case is returned as `atLowerEdge`
    /// and settled by the mint (see `_mintPosition`).
    function _createPool(Launch memory l, address token) internal returns (bool atLowerEdge) {
        int24 spacing = factory.feeAmountTickSpacing(l.fee);
        if (spacing <= 0 || l.tickLower % spacing != 0 || l.tickUpper % spacing != 0) revert InvalidTickRange();
        (address token0, address token1) = l.tokenIsToken0 ? (token, weth) : (weth, token);
        l.pool = positionManager.createAndInitializePoolIfNecessary(token0, token1, l.fee, l.sqrtPriceX96);
        // Someone may have created and initialised the pool of this (predictable) address at another price.
        (uint160 poolPrice, int24 tick,,,,,) = IUniswapV3Pool(l.pool).slot0();
        if (poolPrice != l.sqrtPriceX96) revert PoolPriceMismatch(l.pool);
        if (l.tokenIsToken0 ? tick > l.tickLower : tick < l.tickUpper) revert NotSingleSided();
        atLowerEdge = l.tokenIsToken0 && tick == l.tickLower;
    }

    /// @dev Mints the position with the whole supply and no WETH (this contract never approves WETH). With the pool
    /// tick at `tickLower` (token0) the position manager derives the liquidity from the token alone only if the price
    /// is exactly the price of `tickLower`; above it, it derives zero liquidity from the zero WETH amount and the
    /// pool rejects the mint without reason data, which is reported as `NotSingleSided`.
    function _mintPosition(Launch memory l, address token, uint256 supply, bool atLowerEdge)
        internal
        returns (uint256 positionId)
    {
        IERC20(token).approve(address(positionManager), supply);
        INonfungiblePositionManager.MintParams memory params = INonfungiblePositionManager.MintParams({
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
        });
        if (!atLowerEdge) {
            (positionId,,,) = positionManager.mint(params);
            return positionId;
        }
        try positionManager.mint(params) returns (uint256 id, uint128, uint256, uint256) {
            positionId = id;
        } catch (bytes memory reason) {
            if (reason.length == 0) revert NotSingleSided();
            assembly ("memory-safe") {
                revert(add(reason, 0x20), mload(reason))
            }
        }
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
        return _poolConfig(registry.launchConfig(), tokenIsToken0);
    }

    function _poolConfig(LaunchConfig memory c, bool tokenIsToken0)
        internal
        pure
        returns (uint24 fee, uint160 sqrtPriceX96, int24 tickLower, int24 tickUpper)
    {
        return tokenIsToken0
            ? (c.fee, c.sqrtPriceX96, c.tickLower, c.tickUpper)
            : (c.fee, c.sqrtPriceX96Inverted, -c.tickUpper, -c.tickLower);
    }
}
