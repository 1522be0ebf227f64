// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {DevnetToken} from "./DevnetToken.sol";

interface IFarmFactory {
    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool);
}

interface IFarmPool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function initialize(uint160 sqrtPriceX96) external;
    function slot0() external view returns (uint160, int24 tick, uint16, uint16, uint16, uint8, bool);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
}

interface IFarmWeth {
    function deposit() external payable;
    function transfer(address to, uint256 amount) external returns (bool);
}

interface IFarmErc20 {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// @title PoolFarm (devnet only: scripts/devnet/pool-farm.ts)
/// @notice Makes many real Uniswap v3 pools in one transaction, for the scale benchmarks of pools that exist before the
/// start block: per pool a new DevnetToken (18 decimals, its supply held here), a token/WETH pool created by the real
/// factory and initialized at the given price, and four positions minted straight on the pool for the caller — full
/// range, one around the price, one below it, one above it — so each pool has liquidity and eight initialized ticks.
/// One transaction per pool and position (the scenario's way) costs ~485 s for 1,000 pools on a loaded machine; this
/// makes hundreds per transaction.
contract PoolFarm {
    uint24 public constant FEE = 3000;
    int24 private constant SPACING = 60;
    int24 private constant EDGE = 887220; // the largest multiple of 60 within TickMath's MAX_TICK

    IFarmFactory private immutable factory;
    address private immutable weth;
    /// The pool being minted, the only caller `uniswapV3MintCallback` pays.
    address private minting;

    event Farmed(uint256 indexed index, address token, address pool);

    constructor(address factory_, address weth_) {
        factory = IFarmFactory(factory_);
        weth = weth_;
    }

    /// @param firstIndex the first pool's number (token "Generated <n>", symbol "GEN<n>")
    /// @param wethPerTokenSqrtX96 per pool, sqrt(WETH per token) as a Q64.96 (inverted here when WETH sorts first)
    /// @param liquidity of the full-range position; each concentrated one gets a seventh of it
    /// @dev msg.value is wrapped to pay the WETH side; what is left stays here (devnet only).
    function farm(uint256 firstIndex, uint160[] calldata wethPerTokenSqrtX96, uint128 liquidity) external payable {
        IFarmWeth(weth).deposit{value: msg.value}();
        for (uint256 i = 0; i < wethPerTokenSqrtX96.length; i++) {
            string memory n = Strings.toString(firstIndex + i);
            address token = address(
                new DevnetToken(string.concat("Generated ", n), string.concat("GEN", n), 18, 1e27, address(this))
            );
            address pool = factory.createPool(token, weth, FEE);
            uint160 sqrtPrice = wethPerTokenSqrtX96[i];
            // The pool's price is token1 per token0: WETH per token when the token sorts first, else its inverse.
            if (token > weth) sqrtPrice = uint160((uint256(1) << 192) / sqrtPrice);
            IFarmPool(pool).initialize(sqrtPrice);
            (, int24 tick,,,,,) = IFarmPool(pool).slot0();
            int24 at = floorToSpacing(tick);
            uint128 part = liquidity / 7;
            mintOn(pool, -EDGE, EDGE, liquidity);
            mintOn(pool, at - 10 * SPACING, at + 10 * SPACING, part);
            mintOn(pool, max(-EDGE, at - 600 * SPACING), at - 5 * SPACING, part);
            mintOn(pool, at + 3 * SPACING, min(EDGE, at + 900 * SPACING), part);
            emit Farmed(firstIndex + i, token, pool);
        }
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        require(msg.sender == minting, "not the pool being minted");
        if (amount0Owed > 0) require(IFarmErc20(IFarmPool(msg.sender).token0()).transfer(msg.sender, amount0Owed));
        if (amount1Owed > 0) require(IFarmErc20(IFarmPool(msg.sender).token1()).transfer(msg.sender, amount1Owed));
    }

    function mintOn(address pool, int24 tickLower, int24 tickUpper, uint128 amount) private {
        minting = pool;
        IFarmPool(pool).mint(msg.sender, tickLower, tickUpper, amount, "");
        minting = address(0);
    }

    /// Rounds toward negative infinity (Solidity's division rounds toward zero).
    function floorToSpacing(int24 tick) private pure returns (int24) {
        int24 compressed = tick / SPACING;
        if (tick < 0 && tick % SPACING != 0) compressed--;
        return compressed * SPACING;
    }

    function max(int24 a, int24 b) private pure returns (int24) {
        return a > b ? a : b;
    }

    function min(int24 a, int24 b) private pure returns (int24) {
        return a < b ? a : b;
    }
}
