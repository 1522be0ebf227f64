// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The ERC-20 core (balances, allowances, events) without name/symbol/decimals, for the test tokens whose
/// metadata is unusual on purpose (Bytes32MetadataToken, NoDecimalsToken, FeeOnTransferToken). Not for production.
abstract contract MinimalTestToken {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    constructor(uint256 supply, address holder) {
        totalSupply = supply;
        balanceOf[holder] = supply;
        emit Transfer(address(0), holder, supply);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
        return true;
    }

    /// @dev Moves `value` from `from`; the recipient gets what `_received` says (all of it unless overridden).
    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        uint256 received = _received(from, value);
        balanceOf[to] += received;
        emit Transfer(from, to, received);
        if (received < value) {
            totalSupply -= value - received;
            emit Transfer(from, address(0), value - received);
        }
    }

    function _received(address, uint256 value) internal view virtual returns (uint256) {
        return value;
    }
}
