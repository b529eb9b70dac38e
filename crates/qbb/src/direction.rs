//! The eight ray directions, their shift amounts and the wrap masks of the Kogge-Stone article.

/// Files a and h, and their complements: a shift east must not wrap from the h-file to the a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
pub const NOT_A: u64 = !FILE_A;
pub const NOT_H: u64 = !FILE_H;
pub const NOT_AB: u64 = 0xFCFC_FCFC_FCFC_FCFC;
pub const NOT_GH: u64 = 0x3F3F_3F3F_3F3F_3F3F;

/// A ray direction. Compass order, so that `d` and `d.opposite()` are four apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    North,
    NorthEast,
    East,
    SouthEast,
    South,
    SouthWest,
    West,
    NorthWest,
}

use Direction::*;

impl Direction {
    /// In compass order: `ALL[d as usize] == d`.
    pub const ALL: [Direction; 8] = [
        North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest,
    ];

    /// `[f(North), f(NorthEast), .., f(NorthWest)]` with the eight calls written out: inlined,
    /// each call sees its direction as a constant (so a fill's shifts become immediates), where
    /// `ALL.map(f)` may stay a loop over the table of directions.
    #[inline(always)]
    pub fn map<T>(mut f: impl FnMut(Direction) -> T) -> [T; 8] {
        [
            f(North),
            f(NorthEast),
            f(East),
            f(SouthEast),
            f(South),
            f(SouthWest),
            f(West),
            f(NorthWest),
        ]
    }

    /// The four directions a rook slides in.
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The four directions a bishop slides in.
    pub const DIAGONAL: [Direction; 4] = [
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::NorthWest,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 4) & 7]
    }

    #[inline(always)]
    pub const fn is_diagonal(self) -> bool {
        self as u8 & 1 == 1
    }

    /// The change of square index for one step: north +8, east +1, south-west -9 ...
    #[inline(always)]
    pub const fn delta(self) -> i32 {
        match self {
            Direction::North => 8,
            Direction::NorthEast => 9,
            Direction::East => 1,
            Direction::SouthEast => -7,
            Direction::South => -8,
            Direction::SouthWest => -9,
            Direction::West => -1,
            Direction::NorthWest => 7,
        }
    }

    /// The squares a one-step shift may land on: an eastward step cannot land on the a-file.
    #[inline(always)]
    pub const fn wrap_mask(self) -> u64 {
        match self {
            Direction::North | Direction::South => !0,
            Direction::NorthEast | Direction::East | Direction::SouthEast => NOT_A,
            Direction::SouthWest | Direction::West | Direction::NorthWest => NOT_H,
        }
    }

    /// Shift a bitboard one step in this direction, dropping what wraps around.
    #[inline(always)]
    pub const fn shift(self, bb: u64) -> u64 {
        let d = self.delta();
        let moved = if d > 0 { bb << d } else { bb >> -d };
        moved & self.wrap_mask()
    }
}
