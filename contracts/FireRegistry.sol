// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {LaunchConfig, FeeRecipient} from "./FireInterfaces.sol";

/// @title FireRegistry
/// @notice Governance-tunable parameters of the launchpad, read live by the other contracts and by the backend:
/// graduation timing, fee streaming split, graduation threshold, the canonical launch configuration and the
/// addresses of the launchpad contracts. Every change emits an event. Only `governance` may change anything.
contract FireRegistry {
    uint256 public constant MAX_FEE_RECIPIENTS = 16;
    // Uniswap v3 protocol limits: the tick range and the sqrt price range [sqrt price of MIN_TICK, of MAX_TICK).
    int24 internal constant MAX_TICK = 887272;
    uint160 internal constant MIN_SQRT_PRICE = 4295128739;
    uint160 internal constant MAX_SQRT_PRICE = 1461446703485210103287273052203988822378723970342;
    uint160 internal constant ONE_SQRT_PRICE = 2 ** 96; // sqrt price of tick 0

    address public governance;
    /// @notice Seconds between `FireLaunch.recordGraduationCondition` and the earliest `FireGraduator.graduate`.
    uint256 public gracePeriodDuration;
    /// @notice Seconds after the recorded condition from which anyone may graduate even if `canGraduate` became
    /// false again. Always `>= gracePeriodDuration`.
    uint256 public forceGraduationDelay;
    /// @notice Denominator of the fee recipients' bps; the bps of all recipients sum to at most this value.
    uint256 public streamingRecipientsTotalBps;
    /// @notice WETH (wei) the token's pool must hold for `FireGraduator.canGraduate`.
    uint256 public graduationThreshold;

    address public launch;
    address public graduator;
    address public fuelVault;
    address public stream;

    LaunchConfig internal _launchConfig;
    FeeRecipient[] internal _feeRecipients;

    event GovernanceUpdated(address indexed previous, address indexed current);
    event GracePeriodDurationUpdated(uint256 previous, uint256 current);
    event ForceGraduationDelayUpdated(uint256 previous, uint256 current);
    event StreamingRecipientsTotalBpsUpdated(uint256 previous, uint256 current);
    event GraduationThresholdUpdated(uint256 previous, uint256 current);
    event FeeRecipientsUpdated(address[] accounts, uint16[] bps);
    event LaunchConfigUpdated(
        uint24 fee,
        int24 startTick,
        int24 tickLower,
        int24 tickUpper,
        uint256 totalSupply,
        uint160 sqrtPriceX96,
        uint160 sqrtPriceX96Inverted
    );
    event ContractsUpdated(address launch, address graduator, address fuelVault, address stream);

    error NotGovernance(address caller);
    error ZeroAddress();
    error InvalidDelays(uint256 gracePeriodDuration, uint256 forceGraduationDelay);
    error InvalidBps();
    error TooManyFeeRecipients(uint256 count);
    error InvalidLaunchConfig();

    modifier onlyGovernance() {
        if (msg.sender != governance) revert NotGovernance(msg.sender);
        _;
    }

    /// @notice Defaults: grace period 1 hour, force delay 1 day, threshold 1 WETH, all streamed fees to
    /// `governance_` (10,000 of 10,000 bps), fee tier 1 % with ticks [-207200, 887200] starting at -207200
    /// (about 1e-9 WETH per token, i.e. 1 WETH for the whole supply), supply 1e9 tokens of 18 decimals.
    /// The two start prices are the exact Uniswap v3 sqrt prices of ticks -207200 and 207200, computed off-chain
    /// with the v3 SDK's `TickMath.getSqrtRatioAtTick` (test/contracts/launchpad.test.ts recomputes and compares them).
    constructor(address governance_) {
        if (governance_ == address(0)) revert ZeroAddress();
        _setGovernance(governance_);
        _setDelays(1 hours, 1 days);
        _setStreamingRecipientsTotalBps(10_000);
        FeeRecipient[] memory recipients = new FeeRecipient[](1);
        recipients[0] = FeeRecipient(governance_, 10_000);
        _setFeeRecipients(recipients);
        _setGraduationThreshold(1 ether);
        _setLaunchConfig(
            LaunchConfig({
                fee: 10_000,
                startTick: -207_200,
                tickLower: -207_200,
                tickUpper: 887_200,
                totalSupply: 1_000_000_000 ether,
                sqrtPriceX96: 2510809139091789284100322, // getSqrtRatioAtTick(-207200)
                sqrtPriceX96Inverted: 2500031419217008302293562112940196 // getSqrtRatioAtTick(207200)
            })
        );
    }

    // ---------------------------------------------------------------- views

    function launchConfig() external view returns (LaunchConfig memory) {
        return _launchConfig;
    }

    function feeRecipients() external view returns (FeeRecipient[] memory) {
        return _feeRecipients;
    }

    function feeRecipientCount() external view returns (uint256) {
        return _feeRecipients.length;
    }

    // ---------------------------------------------------------------- governance

    function setGovernance(address next) external onlyGovernance {
        if (next == address(0)) revert ZeroAddress();
        _setGovernance(next);
    }

    function setGracePeriodDuration(uint256 value) external onlyGovernance {
        _setDelays(value, forceGraduationDelay);
    }

    function setForceGraduationDelay(uint256 value) external onlyGovernance {
        _setDelays(gracePeriodDuration, value);
    }

    /// @notice Sets both delays at once (needed when the new grace period exceeds the old force delay).
    function setGraduationDelays(uint256 gracePeriod, uint256 forceDelay) external onlyGovernance {
        _setDelays(gracePeriod, forceDelay);
    }

    function setStreamingRecipientsTotalBps(uint256 value) external onlyGovernance {
        _setStreamingRecipientsTotalBps(value);
    }

    function setFeeRecipients(FeeRecipient[] calldata recipients) external onlyGovernance {
        _setFeeRecipients(recipients);
    }

    function setGraduationThreshold(uint256 value) external onlyGovernance {
        _setGraduationThreshold(value);
    }

    /// @notice Sets the canonical launch configuration (see `LaunchConfig`).
    /// @dev Governance must pass the exact tick prices: `config.sqrtPriceX96 = TickMath.getSqrtRatioAtTick(startTick)`
    /// and `config.sqrtPriceX96Inverted = TickMath.getSqrtRatioAtTick(-startTick)` as computed by Uniswap v3 (e.g.
    /// with the v3 SDK). The contract has no tick math; it only checks that both prices are valid pool prices, lie on
    /// the side of 1 that `startTick` implies and are each other's inverse to within 2^-30 (relative). A price that
    /// is close but not exact can make launches revert with `FireLaunch.NotSingleSided` (when `startTick == tickLower`)
    /// or start them away from `startTick`.
    function setLaunchConfig(LaunchConfig calldata config) external onlyGovernance {
        _setLaunchConfig(config);
    }

    /// @notice Wires the launchpad contracts together (they read each other's addresses here).
    function setContracts(address launch_, address graduator_, address fuelVault_, address stream_)
        external
        onlyGovernance
    {
        if (launch_ == address(0) || graduator_ == address(0) || fuelVault_ == address(0) || stream_ == address(0)) {
            revert ZeroAddress();
        }
        launch = launch_;
        graduator = graduator_;
        fuelVault = fuelVault_;
        stream = stream_;
        emit ContractsUpdated(launch_, graduator_, fuelVault_, stream_);
    }

    // ---------------------------------------------------------------- internals

    function _setGovernance(address next) internal {
        emit GovernanceUpdated(governance, next);
        governance = next;
    }

    function _setDelays(uint256 gracePeriod, uint256 forceDelay) internal {
        if (forceDelay < gracePeriod) revert InvalidDelays(gracePeriod, forceDelay);
        if (gracePeriod != gracePeriodDuration) {
            emit GracePeriodDurationUpdated(gracePeriodDuration, gracePeriod);
            gracePeriodDuration = gracePeriod;
        }
        if (forceDelay != forceGraduationDelay) {
            emit ForceGraduationDelayUpdated(forceGraduationDelay, forceDelay);
            forceGraduationDelay = forceDelay;
        }
    }

    function _setStreamingRecipientsTotalBps(uint256 value) internal {
        if (value == 0 || value < _sumBps(_feeRecipients)) revert InvalidBps();
        emit StreamingRecipientsTotalBpsUpdated(streamingRecipientsTotalBps, value);
        streamingRecipientsTotalBps = value;
    }

    function _setFeeRecipients(FeeRecipient[] memory recipients) internal {
        uint256 n = recipients.length;
        if (n > MAX_FEE_RECIPIENTS) revert TooManyFeeRecipients(n);
        address[] memory accounts = new address[](n);
        uint16[] memory bps = new uint16[](n);
        delete _feeRecipients;
        for (uint256 i = 0; i < n; i++) {
            FeeRecipient memory r = recipients[i];
            if (r.account == address(0)) revert ZeroAddress();
            if (r.bps == 0) revert InvalidBps();
            _feeRecipients.push(r);
            accounts[i] = r.account;
            bps[i] = r.bps;
        }
        if (_sumBps(recipients) > streamingRecipientsTotalBps) revert InvalidBps();
        emit FeeRecipientsUpdated(accounts, bps);
    }

    function _setGraduationThreshold(uint256 value) internal {
        emit GraduationThresholdUpdated(graduationThreshold, value);
        graduationThreshold = value;
    }

    function _setLaunchConfig(LaunchConfig memory c) internal {
        if (
            c.fee == 0 || c.totalSupply == 0 || c.totalSupply > type(uint128).max || c.startTick > c.tickLower
                || c.tickLower >= c.tickUpper || c.startTick < -MAX_TICK || c.tickUpper > MAX_TICK
                || !_plausibleStartPrices(c.startTick, c.sqrtPriceX96, c.sqrtPriceX96Inverted)
        ) revert InvalidLaunchConfig();
        _launchConfig = c;
        emit LaunchConfigUpdated(
            c.fee, c.startTick, c.tickLower, c.tickUpper, c.totalSupply, c.sqrtPriceX96, c.sqrtPriceX96Inverted
        );
    }

    /// @dev Sanity checks only (exactness cannot be checked without tick math, see `setLaunchConfig`): both prices are
    /// valid pool prices, `price` is below / at / above 1 as `startTick` is below / at / above 0, and `inverted` is
    /// within 2^-30 (relative) of 2^192 / `price` (exact tick prices differ from that by less than 2^-31).
    function _plausibleStartPrices(int24 startTick, uint160 price, uint160 inverted) internal pure returns (bool) {
        if (price < MIN_SQRT_PRICE || price >= MAX_SQRT_PRICE) return false;
        if (inverted < MIN_SQRT_PRICE || inverted >= MAX_SQRT_PRICE) return false;
        bool side = startTick < 0
            ? price < ONE_SQRT_PRICE
            : startTick > 0 ? price > ONE_SQRT_PRICE : price == ONE_SQRT_PRICE;
        uint256 approx = (uint256(1) << 192) / price;
        uint256 diff = approx > inverted ? approx - inverted : inverted - approx;
        return side && diff <= inverted >> 30;
    }

    function _sumBps(FeeRecipient[] memory recipients) internal pure returns (uint256 sum) {
        for (uint256 i = 0; i < recipients.length; i++) {
            sum += recipients[i].bps;
        }
    }
}
