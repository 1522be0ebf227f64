// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ILensPool {
    function tickBitmap(int16 wordPosition) external view returns (uint256);
    function ticks(int24 tick)
        external
        view
        returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool);
}

/// @notice Every initialized tick of many Uniswap v3 pools in one eth_call (src/indexer/bootstrap/TickReads.ts). Never
/// deployed: its runtime code is put at an unused address through an eth_call state override. It reads each word of a
/// pool's tick bitmap and `ticks()` of every bit set, and returns only what is initialized — through Multicall3 every
/// word (116 per 0.3 % pool, nearly all empty) was a call of its own, encoded and decoded by the client.
/// It stops before it runs short of gas or of room for ticks and says where: the caller asks again from there.
contract TickBitmapLens {
    struct Range {
        address pool;
        int24 tickSpacing;
        int16 fromWord;
        int16 toWord;
    }

    struct Tick {
        uint32 range;
        int24 tick;
        uint128 liquidityGross;
        int128 liquidityNet;
    }

    /// Gas a `ticks()` read may cost (four cold slots) and a bitmap word (a call and a cold slot), with margin.
    uint256 private constant TICK_GAS = 15_000;
    uint256 private constant WORD_GAS = 6_000;

    /// @param gasReserve gas kept for returning the answer
    /// @param maxTicks the most ticks one answer carries (exceeded only by its first word's)
    /// @return stopRange the first range not finished (`ranges.length` when all are)
    /// @return stopWord the first word of `ranges[stopRange]` not read
    /// @return found the initialized ticks, by range then tick, with their range's index
    function read(Range[] calldata ranges, uint256 gasReserve, uint256 maxTicks)
        external
        view
        returns (uint256 stopRange, int16 stopWord, Tick[] memory found)
    {
        // Room for one more word beyond maxTicks: a word is never split, and the first one is always taken.
        found = new Tick[](maxTicks + 256);
        uint256 n = 0;
        for (stopRange = 0; stopRange < ranges.length; stopRange++) {
            Range calldata r = ranges[stopRange];
            for (int256 w = r.fromWord; w <= r.toWord; w++) {
                stopWord = int16(w);
                if (gasleft() < gasReserve + WORD_GAS) return (stopRange, stopWord, shrink(found, n));
                uint256 word = ILensPool(r.pool).tickBitmap(int16(w));
                if (word == 0) continue;
                uint256 bits = popCount(word);
                if ((n > 0 && n + bits > maxTicks) || gasleft() < gasReserve + bits * TICK_GAS) {
                    return (stopRange, stopWord, shrink(found, n));
                }
                for (uint256 bit = 0; bit < 256; bit++) {
                    if ((word >> bit) & 1 == 0) continue;
                    int24 tick = int24((w * 256 + int256(bit)) * r.tickSpacing);
                    (uint128 gross, int128 net,,,,,,) = ILensPool(r.pool).ticks(tick);
                    found[n++] = Tick(uint32(stopRange), tick, gross, net);
                }
            }
        }
        return (stopRange, 0, shrink(found, n));
    }

    function popCount(uint256 x) private pure returns (uint256 count) {
        for (; x != 0; count++) x &= x - 1;
    }

    /// The first `n` entries (the array's length word is rewritten; the memory behind it stays allocated).
    function shrink(Tick[] memory ticks, uint256 n) private pure returns (Tick[] memory) {
        assembly {
            mstore(ticks, n)
        }
        return ticks;
    }
}
