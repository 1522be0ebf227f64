// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IBalanceOf {
    function balanceOf(address account) external view returns (uint256);
}

/// @notice Measures what a token transfer delivers. Never deployed: its runtime code is put, through an eth_call state
/// override, at an address that holds the token (a pool), so the token's own storage (balances) is untouched and the
/// transfer is simulated from that holder. A fee-on-transfer token delivers less than it takes.
contract TransferProbe {
    function probe(address token, address to, uint256 amount) external returns (uint256 sent, uint256 received) {
        uint256 fromBefore = IBalanceOf(token).balanceOf(address(this));
        uint256 toBefore = IBalanceOf(token).balanceOf(to);
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "transfer failed");
        sent = fromBefore - IBalanceOf(token).balanceOf(address(this));
        received = IBalanceOf(token).balanceOf(to) - toBefore;
    }
}
