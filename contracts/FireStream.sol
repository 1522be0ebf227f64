// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IFireRegistry, IFireLaunch, IFireGraduator, FeeRecipient} from "./FireInterfaces.sol";

/// @title FireStream
/// @notice Streams the swap fees of a graduated token's launch position to the registry's fee recipients.
/// `claimFees(token)` (anyone, only after graduation) collects all fees owed to the position (both pool tokens; WETH
/// is paid as WETH) and pays each recipient `amount * bps / streamingRecipientsTotalBps` (rounded down) of each
/// token. The rest (bps not assigned to recipients, plus rounding dust) goes to the token's creator. One
/// `FeesClaimed` per recipient (also for zero amounts) and one for the creator if the rest is not zero.
/// Amounts are in pool token order (token0 = the lower address of token and WETH).
contract FireStream {
    using SafeERC20 for IERC20;

    IFireRegistry public immutable registry;

    event FeesClaimed(address indexed token, address indexed recipient, uint256 amount0, uint256 amount1);

    error NotGraduated(address token);

    constructor(address registry_) {
        registry = IFireRegistry(registry_);
    }

    /// @return amount0 collected amount of pool token0
    /// @return amount1 collected amount of pool token1
    function claimFees(address token) external returns (uint256 amount0, uint256 amount1) {
        if (!IFireGraduator(registry.graduator()).isGraduated(token)) revert NotGraduated(token);
        IFireLaunch launch = IFireLaunch(registry.launch());
        (amount0, amount1) = launch.collectFees(token);

        address weth = launch.weth();
        (IERC20 token0, IERC20 token1) = token < weth ? (IERC20(token), IERC20(weth)) : (IERC20(weth), IERC20(token));
        FeeRecipient[] memory recipients = registry.feeRecipients();
        uint256 totalBps = registry.streamingRecipientsTotalBps();

        uint256 paid0;
        uint256 paid1;
        for (uint256 i = 0; i < recipients.length; i++) {
            uint256 share0 = amount0 * recipients[i].bps / totalBps;
            uint256 share1 = amount1 * recipients[i].bps / totalBps;
            _pay(token0, recipients[i].account, share0);
            _pay(token1, recipients[i].account, share1);
            paid0 += share0;
            paid1 += share1;
            emit FeesClaimed(token, recipients[i].account, share0, share1);
        }
        uint256 rest0 = amount0 - paid0;
        uint256 rest1 = amount1 - paid1;
        if (rest0 != 0 || rest1 != 0) {
            address creator = launch.creatorOf(token);
            _pay(token0, creator, rest0);
            _pay(token1, creator, rest1);
            emit FeesClaimed(token, creator, rest0, rest1);
        }
    }

    function _pay(IERC20 asset, address to, uint256 amount) internal {
        if (amount != 0) asset.safeTransfer(to, amount);
    }
}
